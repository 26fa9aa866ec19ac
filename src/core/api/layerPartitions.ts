// Partition naming of the shared layers, for surfaces that show or open a layer's memories.
export { identifiersOfMemory, isSharedLayer, partitionForCall, sharedPartition } from '../layers/layerScope.ts';
