import type { ContextItem, GetRelevantContextInput, GetRelevantContextOutput, QueryIntent } from '../api/contextApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { AccessLogEntry, MemoryRecord, WorkingItemRecord } from '../domain/records.ts';
import { safeContextItem } from '../safety/safeContextItem.ts';
import { analyzeQuery } from '../text/analyzer.ts';
import { newId } from '../util/ids.ts';
import { LruCache } from '../util/lruCache.ts';
import { LIMITS, requireId, requirePositiveInt, requireQuery } from '../validation.ts';
import type { Recall, ScoredMemory } from '../retrieval/recall.ts';
import { detectIntent } from '../retrieval/queryIntent.ts';
import { activeFactsForContext } from '../facts/factsForContext.ts';
import type { OverriddenMemory } from '../api/layersApi.ts';
import { callScopes } from '../layers/readScopes.ts';
import { isAwaitingPromotion } from '../working/promotedItems.ts';
import { explainMatch } from '../retrieval/relevance.ts';
import { typeWeigher, weightKeyOf, workingMemoryMultiplier } from '../retrieval/typeWeights.ts';
import { excludedSources } from './excludedSources.ts';
import { recalledRef } from '../memoryEvents.ts';
import { anchorsOf, type AnchorReport, reportOf } from '../anchors/anchorModel.ts';
import { staleNote } from '../anchors/anchorFreshness.ts';

const INTENTS: readonly QueryIntent[] = ['how_to', 'what_happened', 'what_is', 'debug', 'general'];
const LONG_TERM_CANDIDATES = 40;
const PINNED_CANDIDATES = 20;
/** Each further pick from the same memory type is worth a little less, so the budget holds a mix. */
const SAME_TYPE_DISCOUNT = 0.92;

/** A context item before it is made safe and measured (token counting is the costly part). */
type DraftItem = Omit<ContextItem, 'token_count'>;

interface Candidate {
  item: DraftItem;
  typeKey: string;
  score: number;
  scored?: ScoredMemory;
}

/** get_relevant_context (seed 000 §8.4): working memory and long-term memory packed into one budget. */
export interface ContextOptions {
  defaultProjectId?: string | null;
  /** false: the call does not count as the agent reading these memories (a preview). */
  logAccess?: boolean;
  /** A preview outside any session (the browser panel before the first agent call): long-term memory and facts only. */
  allowMissingSession?: boolean;
}

export class ContextAssembler {
  private readonly deps: CoreDeps;
  private readonly recall: Recall;
  /** Analysed terms of working-memory items, which are re-read on every call. */
  private readonly itemTerms = new LruCache<string, Set<string>>({ maxEntries: 5_000 });

  constructor(deps: CoreDeps, recall: Recall) {
    this.deps = deps;
    this.recall = recall;
  }

  async assemble(input: GetRelevantContextInput, options: ContextOptions = {}): Promise<GetRelevantContextOutput> {
    const userId = requireId(input.user_id, 'user_id');
    const sessionId = requireId(input.session_id, 'session_id');
    const query = requireQuery(input.query);
    const budget = requirePositiveInt(input.token_budget, 'token_budget', 4000, LIMITS.tokenBudget);
    if (input.query_intent !== undefined && !INTENTS.includes(input.query_intent)) {
      throw new MemoryError('INVALID_INPUT', `query_intent must be one of ${INTENTS.join(', ')}.`, {
        details: { field: 'query_intent' },
      });
    }
    for (const [key, value] of Object.entries(input.context_weights ?? {})) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
        throw new MemoryError('INVALID_INPUT', `context_weights.${key} must be a number between 0 and 1.`, {
          details: { field: `context_weights.${key}` },
        });
      }
    }
    const stored = await this.deps.store.getSession(sessionId);
    // Another user's session is treated exactly like one that does not exist.
    const session = stored && stored.user_id === userId ? stored : null;
    if (!session && !options.allowMissingSession) {
      throw new MemoryError(
        'SESSION_NOT_FOUND',
        `No session ${sessionId} exists for user ${userId}; call init_session first.`,
        { details: { session_id: sessionId } },
      );
    }
    const intent = input.query_intent ?? detectIntent(query);
    const weights = input.context_weights ?? {};
    const weigh = typeWeigher(weights);
    const excluded = excludedSources(weights);
    const keep = (memory: Pick<MemoryRecord, 'memory_category' | 'memory_subtype'>) =>
      !excluded.has(weightKeyOf(memory.memory_category, memory.memory_subtype));
    const projectId = input.project_id ?? session?.project_id ?? options.defaultProjectId;
    const layerInput = {
      ...(input.layers ? { layers: input.layers } : {}),
      ...pickDefined({
        agent_id: input.agent_id,
        team_id: input.team_id,
        org_id: input.org_id,
        company_id: input.company_id,
      }),
    };
    const scopes = callScopes(
      { ...layerInput, session_id: sessionId },
      userId,
      projectId,
      this.deps.config.layerDefaults,
    );

    const [facts, workingItems, recalled, pinned] = await Promise.all([
      activeFactsForContext(this.deps, scopes, userId, projectId),
      session
        ? this.deps.store
            .listWorkingItems(sessionId)
            .then((items) => items.filter((item) => !isAwaitingPromotion(item)))
        : Promise.resolve([]),
      this.recall.recall(
        {
          user_id: userId,
          query,
          limit: LONG_TERM_CANDIDATES,
          session_id: sessionId,
          ...layerInput,
          ...(input.focus_entities ? { focus_entities: input.focus_entities } : {}),
        },
        {
          tool: 'get_relevant_context',
          intent,
          typeWeight: weigh,
          defaultProjectId: projectId,
          logAccess: false,
          candidateLimit: LONG_TERM_CANDIDATES + 20,
          // Context packs a token budget: full matches only.
          partialMatches: false,
          floorBeforeTypeWeight: true,
          announce: false,
        },
      ),
      this.deps.store.listMemories({
        filter: {
          user_id: userId,
          pinned: true,
          state: 'live',
          ...(projectId !== undefined ? { project_id: projectId } : {}),
        },
        sort: 'importance',
        offset: 0,
        limit: PINNED_CANDIDATES,
      }),
    ]);

    const factIds = new Set(facts.map((fact) => fact.memory_id));
    const overrides = new Map(
      recalled.memories.filter((memory) => memory.overrides).map((memory) => [memory.memory_id, memory.overrides!]),
    );
    const candidates: Candidate[] = [
      ...(excluded.has('working_memory') ? [] : this.workingCandidates(workingItems, query, weights)),
      ...recalled.scored
        .filter((entry) => !factIds.has(entry.memory.memory_id) && keep(entry.memory))
        .map((entry) => this.longTermCandidate(entry, intent, overrides.get(entry.memory.memory_id))),
    ];
    const recalledIds = new Set(recalled.scored.map((entry) => entry.memory.memory_id));
    for (const memory of pinned.items) {
      if (recalledIds.has(memory.memory_id) || factIds.has(memory.memory_id) || !keep(memory)) continue;
      const score = 0.4 * weigh(memory.memory_category, memory.memory_subtype, intent);
      candidates.push(
        this.memoryCandidate(
          memory,
          score,
          `Pinned ${memory.memory_category}.${memory.memory_subtype} memory: pinned memories are always considered.`,
        ),
      );
    }

    // Memory text is data, not instructions: delimited and defused before packing, so the budget counts what is sent (seed 000 §10.4).
    const measured = new Map<Candidate, Measured>();
    const measure = (candidate: Candidate): Measured => {
      let result = measured.get(candidate);
      if (!result)
        measured.set(candidate, (result = { ...candidate, item: safeContextItem(candidate.item, this.deps.tokens) }));
      return result;
    };
    // Structured facts come first and are packed before anything searched (seed 002); the rest fills what is left.
    const factsSelected = packInOrder(
      facts.map((item) => measure({ item, typeKey: 'fact', score: 1 })),
      budget,
    );
    const factTokens = factsSelected.reduce((total, candidate) => total + candidate.item.token_count, 0);
    const selected = [...factsSelected, ...pack(candidates, budget - factTokens, measure)];
    const longTermSelected = selected.filter((candidate) => candidate.item.source === 'long_term');
    if (options.logAccess !== false && longTermSelected.length > 0) {
      const at = this.deps.clock.now().toISOString();
      const entries: AccessLogEntry[] = longTermSelected.map((candidate) => ({
        access_id: newId('acc'),
        memory_id: candidate.item.memory_id as string,
        session_id: sessionId,
        user_id: candidate.scored?.memory.user_id ?? userId,
        query_text: query,
        similarity_score: candidate.scored?.similarity ?? null,
        tool: 'get_relevant_context',
        accessed_at: at,
      }));
      this.deps.access.record(entries);
    }

    // Named by their own text: the packed items are framed for the agent (<memory …>), which would hide it.
    const rawText = new Map<string, string>();
    for (const item of [...facts, ...candidates.map((candidate) => candidate.item)])
      if (item.memory_id) rawText.set(item.memory_id, item.content);
    const handedOut = selected
      .filter((candidate) => candidate.item.memory_id !== undefined)
      .map((candidate) =>
        recalledRef({
          memory_id: candidate.item.memory_id as string,
          layer: candidate.item.layer,
          content: rawText.get(candidate.item.memory_id as string) ?? candidate.item.content,
        }),
      );
    // A preview (logAccess false: the panel's Context preview) hands nothing to an agent, and says so.
    const tool = options.logAccess === false ? 'context_preview' : 'get_relevant_context';
    this.deps.events.emit({
      type: 'recall',
      user_id: userId,
      query,
      returned: handedOut.length,
      tool,
      memories: handedOut,
    });

    const totalTokens = selected.reduce((total, candidate) => total + candidate.item.token_count, 0);
    const byCategory: Record<string, number> = {};
    for (const candidate of longTermSelected) {
      const category = candidate.item.memory_category as string;
      byCategory[category] = (byCategory[category] ?? 0) + 1;
    }
    return {
      context_items: selected.map((candidate) => candidate.item),
      total_tokens: totalTokens,
      budget_used_pct: Math.round((totalTokens / budget) * 1000) / 10,
      detected_intent: intent,
      retrieval_stats: {
        working_memory_items: selected.length - longTermSelected.length,
        long_term_searched: recalled.retrieval_breakdown.candidates_considered,
        long_term_returned: longTermSelected.length,
        by_category: byCategory,
        entity_boost_applied: recalled.scored.some((entry) => entry.breakdown.matched_entities.length > 0),
        mode: recalled.retrieval_breakdown.mode,
        searched_layers: recalled.retrieval_breakdown.searched_layers,
        relevance_floor: recalled.retrieval_breakdown.relevance_floor,
        long_term_below_floor: recalled.retrieval_breakdown.below_floor,
      },
    };
  }

  private workingCandidates(
    items: readonly WorkingItemRecord[],
    query: string,
    weights: GetRelevantContextInput['context_weights'],
  ): Candidate[] {
    const queryTerms = new Set(analyzeQuery(query).map((term) => term.term));
    const multiplier = workingMemoryMultiplier(weights);
    const newest = items.reduce((max, item) => Math.max(max, item.sequence_num), 0);
    return items.map((item) => {
      let itemTerms = this.itemTerms.get(item.content);
      if (!itemTerms) {
        itemTerms = new Set(analyzeQuery(item.content).map((term) => term.term));
        this.itemTerms.set(item.content, itemTerms);
      }
      let overlap = 0;
      for (const term of queryTerms) if (itemTerms.has(term)) overlap++;
      const match = queryTerms.size > 0 ? overlap / queryTerms.size : 0;
      const recency = newest > 0 ? item.sequence_num / newest : 1;
      const protectedBonus = item.pinned || item.content_type === 'task_state' ? 0.25 : 0;
      const score = Math.min(1, (0.5 * match + 0.25 * recency + protectedBonus) * multiplier);
      const reasons = [
        item.pinned ? 'pinned' : null,
        item.content_type === 'task_state' ? 'current task state' : null,
        match > 0 ? `shares ${overlap} of ${queryTerms.size} query terms` : null,
        recency === 1 ? 'most recent item' : null,
      ].filter((reason): reason is string => reason !== null);
      return {
        typeKey: 'working_memory',
        score,
        item: {
          source: 'working_memory' as const,
          item_id: item.item_id,
          content: item.content,
          relevance_score: round(score),
          token_count: item.token_count,
          why_included: `Working memory (${item.content_type})${reasons.length > 0 ? `: ${reasons.join(', ')}` : ''}.`,
        },
      };
    });
  }

  private longTermCandidate(
    entry: ScoredMemory,
    intent: QueryIntent,
    overrides: readonly OverriddenMemory[] | undefined,
  ): Candidate {
    const { memory } = entry;
    const layer = memory.layer === 'user' ? '' : ` (${memory.layer} layer)`;
    const overriding = overrides?.length
      ? ` It overrides ${overrides.map((other) => `a conflicting ${other.layer}-layer memory`).join(' and ')}: the more specific layer wins.`
      : '';
    const why = `${memory.memory_category}.${memory.memory_subtype} memory${layer} for a ${intent} query: ${explainMatch(entry.breakdown)}.${overriding}`;
    return { ...this.memoryCandidate(memory, entry.score, why, entry.anchors), scored: entry };
  }

  private memoryCandidate(memory: MemoryRecord, score: number, why: string, checked?: AnchorReport[]): Candidate {
    // Pinned memories come from a listing, not recall: their anchors carry the status last stored.
    const anchors = checked ?? anchorsOf(memory.metadata).map((anchor) => reportOf(anchor, null));
    const stale = staleNote(anchors);
    return {
      typeKey: `${memory.memory_category}.${memory.memory_subtype}`,
      score,
      item: {
        source: 'long_term',
        memory_id: memory.memory_id,
        memory_category: memory.memory_category,
        memory_subtype: memory.memory_subtype,
        layer: memory.layer,
        // The note travels inside the delimited content, so no rendering can present the memory as current.
        content: stale ? `${stale}\n${memory.content}` : memory.content,
        relevance_score: round(score),
        entities: memory.entities,
        ...(anchors.length > 0 ? { anchors } : {}),
        confidence: memory.confidence,
        source_type: memory.source_type,
        why_included: why,
      },
    };
  }
}

interface Measured extends Candidate {
  item: ContextItem;
}

/** Takes candidates in the given order while they fit. */
function packInOrder(candidates: readonly Measured[], budget: number): Measured[] {
  const selected: Measured[] = [];
  let used = 0;
  for (const candidate of candidates) {
    if (used + candidate.item.token_count > budget) continue;
    selected.push(candidate);
    used += candidate.item.token_count;
  }
  return selected;
}

/**
 * Greedy packing by score with a same-type discount; items that do not fit are skipped, not
 * truncated. Candidates are visited best first and measured (made safe, tokens counted) only
 * when they could still be the next pick, so a call counts tokens of a few dozen items, not all.
 */
function pack(
  candidates: readonly Candidate[],
  budget: number,
  measure: (candidate: Candidate) => Measured,
): Measured[] {
  const remaining = [...candidates].sort((a, b) => b.score - a.score);
  const selected: Measured[] = [];
  const perType = new Map<string, number>();
  let used = 0;
  while (remaining.length > 0) {
    let bestIndex = -1;
    let bestScore = -1;
    for (let index = 0; index < remaining.length; index++) {
      const candidate = remaining[index];
      // The discount only lowers scores: nothing after this can beat the best found so far.
      if (candidate.score <= bestScore) break;
      const adjusted = candidate.score * SAME_TYPE_DISCOUNT ** (perType.get(candidate.typeKey) ?? 0);
      if (adjusted <= bestScore || used + measure(candidate).item.token_count > budget) continue;
      bestScore = adjusted;
      bestIndex = index;
    }
    if (bestIndex < 0) break;
    const [chosen] = remaining.splice(bestIndex, 1);
    const item = measure(chosen);
    selected.push(item);
    used += item.item.token_count;
    perType.set(chosen.typeKey, (perType.get(chosen.typeKey) ?? 0) + 1);
  }
  return selected;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function pickDefined<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
