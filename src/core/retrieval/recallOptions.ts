import type { QueryIntent } from '../api/contextApi.ts';
import type { MemoryCategory } from '../domain/taxonomy.ts';

/** How a caller inside the core (recall_memories, context assembly, the panel) runs a recall. */
export interface RecallOptions {
  /** Tool name written to the access log. */
  tool: string;
  /** Type multiplier for a memory under the detected intent; defaults to no type preference. */
  typeWeight?: (category: MemoryCategory, subtype: string, intent: QueryIntent) => number;
  intent?: QueryIntent;
  /** Project scope applied when the input names none (the server's workspace). */
  defaultProjectId?: string | null;
  /** Record access (recall_memories does; previews from the panel do not). */
  logAccess?: boolean;
  /** How many candidates each signal contributes before scoring. */
  candidateLimit?: number;
  /** Apply the relevance floor before typeWeight (get_relevant_context, whose type weights order packing). */
  floorBeforeTypeWeight?: boolean;
  /** Emit the recall event (default); get_relevant_context announces what it packed instead of its candidates. */
  announce?: boolean;
  /**
   * Keep partial matches beside an answer that clears the default floor (relevanceFloor.ts);
   * default true. get_relevant_context packs a token budget and keeps full matches only.
   */
  partialMatches?: boolean;
}
