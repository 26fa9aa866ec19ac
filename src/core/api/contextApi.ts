import type { LayerName, MemoryLayer } from '../domain/layers.ts';
import type { AnchorReport } from '../anchors/anchorModel.ts';
export type QueryIntent = 'how_to' | 'what_happened' | 'what_is' | 'debug' | 'general';

/** Keys of seed 000 §7.1 `context_weights`. */
export type ContextWeightKey =
  | 'working_memory'
  | 'episodic_decisions'
  | 'episodic_events'
  | 'episodic_outcomes'
  | 'semantic_project'
  | 'semantic_entity'
  | 'semantic_user'
  | 'procedural_workflow'
  | 'procedural_pattern'
  | 'preference';

export interface GetRelevantContextInput {
  session_id: string;
  user_id: string;
  query: string;
  token_budget: number;
  query_intent?: QueryIntent;
  context_weights?: Partial<Record<ContextWeightKey, number>>;
  focus_entities?: string[];
  /** Layers to draw long-term memories and facts from (seed 001); default every layer the identifiers open. */
  layers?: LayerName[];
  agent_id?: string;
  project_id?: string;
  team_id?: string;
  org_id?: string;
  company_id?: string;
}

export interface ContextItem {
  source: 'working_memory' | 'long_term';
  memory_id?: string;
  item_id?: string;
  memory_category?: string;
  memory_subtype?: string;
  /** Layer of a long-term memory. */
  layer?: MemoryLayer;
  content: string;
  relevance_score: number;
  token_count: number;
  entities?: string[];
  confidence?: number;
  source_type?: string;
  why_included: string;
  /** The memory's code anchors with their status (issue #18). */
  anchors?: AnchorReport[];
}

export interface GetRelevantContextOutput {
  context_items: ContextItem[];
  total_tokens: number;
  budget_used_pct: number;
  detected_intent: QueryIntent;
  retrieval_stats: {
    working_memory_items: number;
    long_term_searched: number;
    long_term_returned: number;
    by_category: Record<string, number>;
    entity_boost_applied: boolean;
    mode: string;
    /** The layers long-term memories and facts came from, most specific first. */
    searched_layers: MemoryLayer[];
    /** The relevance floor long-term memories had to reach (pinned memories are always considered). */
    relevance_floor: number;
    /** Long-term memories the floor left out. */
    long_term_below_floor: number;
  };
}
