/**
 * Search keys: extra words a memory is found by (synonyms, categories, the questions it answers),
 * given by the agent that stores it (store_memory `keywords`), added by the user in the panel, or
 * added later by a language model (background enrichment). Kept in the memory's metadata so every
 * store holds them without a schema change, and indexed at a lower weight than the memory's own
 * words (analyzer.ts).
 */
export const SEARCH_KEYS_FIELD = 'search_keys';
/** Who added each key, and for a model's keys which model and when: the panel shows it. */
export const SEARCH_KEY_ORIGINS_FIELD = 'search_key_origins';
/** Keys the user removed: a later enrichment never brings them back. */
export const REMOVED_SEARCH_KEYS_FIELD = 'search_keys_removed';

export type SearchKeySource = 'agent' | 'user' | 'model';

export interface SearchKeyOrigin {
  by: SearchKeySource;
  /** The model's name (`openai:gpt-4o-mini`, `vscode-lm:copilot (gpt-4o)`); models only. */
  model?: string;
  at: string;
}

/** A key with where it came from, as the panel lists it. */
export interface SearchKeyView extends SearchKeyOrigin {
  key: string;
}

export function searchKeysOf(metadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const keys = metadata?.[SEARCH_KEYS_FIELD];
  return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : [];
}

export function removedSearchKeysOf(metadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const keys = metadata?.[REMOVED_SEARCH_KEYS_FIELD];
  return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : [];
}

export function searchKeyOriginsOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): Record<string, SearchKeyOrigin> {
  const raw = metadata?.[SEARCH_KEY_ORIGINS_FIELD];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const origins: Record<string, SearchKeyOrigin> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (value === null || typeof value !== 'object') continue;
    const { by, model, at } = value as Record<string, unknown>;
    if ((by !== 'agent' && by !== 'user' && by !== 'model') || typeof at !== 'string') continue;
    origins[key] = { by, at, ...(typeof model === 'string' ? { model } : {}) };
  }
  return origins;
}

/**
 * Every key with its origin. Keys stored before origins were recorded (or by an import) have
 * none; they came in through store_memory's `keywords`, so they count as the agent's.
 */
export function searchKeyViews(
  metadata: Readonly<Record<string, unknown>> | undefined,
  fallbackAt: string,
): SearchKeyView[] {
  const origins = searchKeyOriginsOf(metadata);
  return searchKeysOf(metadata).map((key) => ({ key, ...(origins[key] ?? { by: 'agent' as const, at: fallbackAt }) }));
}

/** Case- and space-insensitive identity of a key, so "Database" and "database " are one key. */
export function searchKeyIdentity(key: string): string {
  return key.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Metadata fields that record `keys` as given by `by` at `at`, merged over what the metadata holds. */
export function withSearchKeys(
  metadata: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  origin: SearchKeyOrigin,
  limit: number,
): Record<string, unknown> {
  const existing = searchKeysOf(metadata);
  const seen = new Set(existing.map(searchKeyIdentity));
  const added = keys.filter((key) => {
    const identity = searchKeyIdentity(key);
    if (identity === '' || seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
  const all = [...existing, ...added].slice(0, limit);
  const origins = searchKeyOriginsOf(metadata);
  for (const key of added) if (all.includes(key)) origins[key] = origin;
  return { ...metadata, [SEARCH_KEYS_FIELD]: all, [SEARCH_KEY_ORIGINS_FIELD]: origins };
}

/** The metadata without the keys of one source (a model's keys before it re-enriches). */
export function withoutSearchKeysFrom(
  metadata: Readonly<Record<string, unknown>>,
  by: SearchKeySource,
): Record<string, unknown> {
  const origins = searchKeyOriginsOf(metadata);
  const kept = searchKeysOf(metadata).filter((key) => (origins[key]?.by ?? 'agent') !== by);
  const keptOrigins = Object.fromEntries(Object.entries(origins).filter(([key]) => kept.includes(key)));
  return { ...metadata, [SEARCH_KEYS_FIELD]: kept, [SEARCH_KEY_ORIGINS_FIELD]: keptOrigins };
}

/** The metadata without `key`, remembered as removed so no later enrichment adds it again. */
export function withSearchKeyRemoved(
  metadata: Readonly<Record<string, unknown>>,
  key: string,
): Record<string, unknown> {
  const identity = searchKeyIdentity(key);
  const origins = searchKeyOriginsOf(metadata);
  const kept = searchKeysOf(metadata).filter((existing) => searchKeyIdentity(existing) !== identity);
  const keptOrigins = Object.fromEntries(Object.entries(origins).filter(([existing]) => kept.includes(existing)));
  const removed = [...new Set([...removedSearchKeysOf(metadata), identity])];
  return {
    ...metadata,
    [SEARCH_KEYS_FIELD]: kept,
    [SEARCH_KEY_ORIGINS_FIELD]: keptOrigins,
    [REMOVED_SEARCH_KEYS_FIELD]: removed,
  };
}
