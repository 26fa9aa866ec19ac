/** Limits every entry point enforces; the MCP schemas and the panel read them from here. */
export const LIMITS = {
  contentBytes: 100 * 1024,
  queryChars: 4_000,
  idChars: 200,
  entities: 100,
  entityChars: 300,
  tags: 50,
  tagChars: 100,
  metadataBytes: 32 * 1024,
  /** Nesting of objects and arrays in free-form JSON; real metadata is a few levels deep. */
  jsonDepth: 32,
  recallLimit: 100,
  /** Rows one panel list request may ask for. */
  pageRows: 1_000,
  /** Values in one panel filter field (categories, tags, …). */
  filterValues: 200,
  /** Memories one panel forget / restore / purge request, or one forget_memory call, may name. */
  batchIds: 1_000,
  alternateQueries: 5,
  searchKeys: 30,
  tokenBudget: 1_000_000,
  maxTokens: 2_000_000,
  /** Hops get_related_memories follows; each hop multiplies the links read. */
  relatedDepth: 5,
  autoLinks: 50,
  /** Contradiction pairs one call returns. */
  contradictionPairs: 200,
  /** Calls the MCP call log keeps, and so the most get_recent_calls / get_recent_errors can return. */
  recentCalls: 200,
  /** Analytics buckets back from now: a year of days. */
  analyticsBuckets: 366,
  /** Memories one prune archives. */
  pruneBatch: 10_000,
  /** Memories one consolidation clusters; clustering is quadratic in them. */
  consolidationCandidates: 5_000,
  /** Decay's base stability: ten years. */
  stabilityDays: 3_650,
  factKeyChars: 64,
  factValueChars: 2_000,
  /** A promotion's or supersession's reason, kept with its record. */
  reasonChars: 500,
  /** An export cursor ("m" or "s" and up to twelve digits) with room to spare. */
  cursorChars: 40,
} as const;
