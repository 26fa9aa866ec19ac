import type { ContextWeightKey, QueryIntent } from '../api/contextApi.ts';
import type { MemoryCategory } from '../domain/taxonomy.ts';

/** Seed 000 §7.1 defaults for context_weights. */
export const DEFAULT_CONTEXT_WEIGHTS: Record<ContextWeightKey, number> = {
  working_memory: 0.35,
  episodic_decisions: 0.15,
  episodic_events: 0.05,
  episodic_outcomes: 0.1,
  semantic_project: 0.1,
  semantic_entity: 0.1,
  semantic_user: 0.05,
  procedural_workflow: 0.05,
  procedural_pattern: 0.03,
  preference: 0.02,
};

/** Subtypes the spec's weight table does not name share the weight of their closest sibling. */
const SUBTYPE_WEIGHT_KEY: Record<string, ContextWeightKey> = {
  decision: 'episodic_decisions',
  event: 'episodic_events',
  conversation: 'episodic_events',
  outcome: 'episodic_outcomes',
  project: 'semantic_project',
  environment: 'semantic_project',
  domain: 'semantic_entity',
  entity: 'semantic_entity',
  user: 'semantic_user',
  workflow: 'procedural_workflow',
  tool_usage: 'procedural_workflow',
  pattern: 'procedural_pattern',
  debugging: 'procedural_pattern',
  communication: 'preference',
  style: 'preference',
  tools: 'preference',
  boundaries: 'preference',
};

/** Seed 000 §4.3 retrieval profiles: HIGH and MEDIUM subtypes per intent. */
const PROFILES: Record<QueryIntent, { high: string[]; medium: string[] }> = {
  how_to: { high: ['workflow', 'pattern'], medium: ['project', 'style'] },
  what_happened: { high: ['decision', 'event'], medium: ['outcome'] },
  what_is: { high: ['entity', 'project'], medium: ['domain'] },
  debug: { high: ['debugging', 'outcome'], medium: ['environment'] },
  general: { high: [], medium: [] },
};

const HIGH = 1.5;
const MEDIUM = 1.2;

export function weightKeyOf(category: MemoryCategory, subtype: string): ContextWeightKey {
  return SUBTYPE_WEIGHT_KEY[subtype] ?? (category === 'preference' ? 'preference' : 'semantic_project');
}

export type TypeWeigher = (category: MemoryCategory, subtype: string, intent: QueryIntent) => number;

/**
 * Multiplier in [0.5, 1.0] for a memory type under an intent: the base weight sets the order
 * among types, the profile raises the types the intent asks for. Bounded so a strong text
 * match of a low-weight type can still outrank a weak match of a favoured one. The overrides are
 * merged once, and the weigher is applied to every candidate of a call.
 */
export function typeWeigher(overrides: Partial<Record<ContextWeightKey, number>> = {}): TypeWeigher {
  const weights = { ...DEFAULT_CONTEXT_WEIGHTS, ...overrides };
  const longTermMax = Math.max(
    ...Object.entries(weights)
      .filter(([key]) => key !== 'working_memory')
      .map(([, value]) => value),
    1e-9,
  );
  return (category, subtype, intent) => {
    const base = weights[weightKeyOf(category, subtype)] / longTermMax;
    const profile = PROFILES[intent];
    const lift = profile.high.includes(subtype) ? HIGH : profile.medium.includes(subtype) ? MEDIUM : 1;
    const raw = Math.min(1, base * lift);
    return 0.5 + 0.5 * raw;
  };
}

export function workingMemoryMultiplier(overrides: Partial<Record<ContextWeightKey, number>> = {}): number {
  const weights = { ...DEFAULT_CONTEXT_WEIGHTS, ...overrides };
  const max = Math.max(...Object.values(weights), 1e-9);
  return 0.5 + 0.5 * (weights.working_memory / max);
}

/**
 * recall_memories has no weight table of its own: with a clear intent the profile's types
 * rise a little above the rest; a general query treats every type alike. A dialog turn
 * ('conversation') is neutral under every intent: its subtype says where it was said, not what
 * it holds (a decision, an event, a fact), so the profile has nothing to judge it by; at 0.9 the
 * turns of "when did …" questions needed a tenth more to clear the floor (issue 30, LoCoMo other
 * development conversations R@10 78.6 -> 78.8, tuning pair and both coding sets unchanged).
 */
export function intentMultiplier(subtype: string, intent: QueryIntent): number {
  if (intent === 'general' || subtype === 'conversation') return 1;
  const profile = PROFILES[intent];
  return profile.high.includes(subtype) ? 1 : profile.medium.includes(subtype) ? 0.95 : 0.9;
}
