import type { CoreDeps } from '../coreDeps.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { StructuredFacts } from './structuredFacts.ts';

const instances = new WeakMap<CoreDeps, StructuredFacts>();

/** One StructuredFacts per core, so its per-key lock covers every caller of that core. */
export function factsOf(core: { coreDeps: CoreDeps; longTerm: LongTermMemory }): StructuredFacts {
  let facts = instances.get(core.coreDeps);
  if (!facts) {
    facts = new StructuredFacts(core.coreDeps, core.longTerm);
    instances.set(core.coreDeps, facts);
  }
  return facts;
}
