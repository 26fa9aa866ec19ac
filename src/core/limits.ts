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
  /** Memories one panel forget / restore / purge request may name. */
  batchIds: 1_000,
  alternateQueries: 5,
  searchKeys: 30,
  tokenBudget: 1_000_000,
  maxTokens: 2_000_000,
} as const;
