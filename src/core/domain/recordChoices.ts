/**
 * The closed value lists of the persisted records, apart from their schemas (memoryRecord.ts,
 * workingRecords.ts build their zod enums from these): the store's row decoders, session settings
 * and the working memory check values against them without loading zod, which a fresh memory
 * process then loads only when a tool schema or an import needs it.
 */

/** Where a memory came from (seed 000 §6). */
export const SOURCE_TYPES = [
  'conversation',
  'explicit',
  'inferred',
  'observed',
  'editor',
  'extraction',
  'working_memory',
] as const;

/** How a full session makes room (seed 000 §8.3). */
export const EVICTION_POLICIES = ['lru', 'relevance', 'hybrid'] as const;

/** Every kind of working-memory item; tool input, imported files and stored rows are checked against it. */
export const WORKING_CONTENT_TYPES = [
  'message',
  'task_state',
  'scratchpad',
  'system',
  'retrieved_memory',
  'editor_context',
] as const;
