/**
 * Search keys: extra words a memory is found by (synonyms, categories, the questions it answers),
 * given by the agent that stores it (store_memory `keywords`) or added later by a language model
 * (background enrichment). Kept in the memory's metadata so every store holds them without a schema
 * change, and indexed at a lower weight than the memory's own words (analyzer.ts).
 */
export const SEARCH_KEYS_FIELD = 'search_keys';
/** Who added the keys the model enrichment wrote: so it never overwrites an agent's own. */
export const SEARCH_KEYS_SOURCE_FIELD = 'search_keys_source';

export function searchKeysOf(metadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const keys = metadata?.[SEARCH_KEYS_FIELD];
  return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : [];
}
