import type { LayerName } from '../domain/layers.ts';
import type { QueryIntent } from './contextOutput.ts';

export type { ContextItem, GetRelevantContextOutput, QueryIntent } from './contextOutput.ts';

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
