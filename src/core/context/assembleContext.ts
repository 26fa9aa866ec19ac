import type { GetRelevantContextInput, GetRelevantContextOutput, QueryIntent } from '../api/contextApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { AccessLogEntry, MemoryRecord } from '../domain/records.ts';
import { safeContextItem } from '../safety/safeContextItem.ts';
import { newTimeOrderedId } from '../util/ids.ts';
import { LruCache } from '../util/lruCache.ts';
import { LIMITS, requireId, requirePositiveInt, requireQuery } from '../validation.ts';
import type { Recall } from '../retrieval/recall.ts';
import { detectIntent } from '../retrieval/queryIntent.ts';
import { activeFactsForContext } from '../facts/factsForContext.ts';
import { callScopes } from '../layers/readScopes.ts';
import { isAwaitingPromotion } from '../working/promotedItems.ts';
import { typeWeigher, weightKeyOf } from '../retrieval/typeWeights.ts';
import { excludedSources } from './excludedSources.ts';
import { type Candidate, longTermCandidate, memoryCandidate, workingCandidates } from './contextCandidates.ts';
import { type Measured, pack, packInOrder } from './contextPacking.ts';
import { recalledRef } from '../memoryEvents.ts';

const INTENTS: readonly QueryIntent[] = ['how_to', 'what_happened', 'what_is', 'debug', 'general'];
const LONG_TERM_CANDIDATES = 40;
const PINNED_CANDIDATES = 20;

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
    // The session and its items in one store read; another user's session is treated exactly like one that does not exist.
    const stored = await this.deps.store.getSessionWithItems(sessionId);
    const owned = stored && stored.session.user_id === userId ? stored : null;
    const session = owned?.session ?? null;
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

    const workingItems = owned ? owned.items.filter((item) => !isAwaitingPromotion(item)) : [];
    const [facts, recalled, pinned] = await Promise.all([
      activeFactsForContext(this.deps, scopes, userId, projectId),
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
      ...(excluded.has('working_memory') ? [] : workingCandidates(this.itemTerms, workingItems, query, weights)),
      ...recalled.scored
        .filter((entry) => !factIds.has(entry.memory.memory_id) && keep(entry.memory))
        .map((entry) => longTermCandidate(entry, intent, overrides.get(entry.memory.memory_id))),
    ];
    const recalledIds = new Set(recalled.scored.map((entry) => entry.memory.memory_id));
    for (const memory of pinned.items) {
      if (recalledIds.has(memory.memory_id) || factIds.has(memory.memory_id) || !keep(memory)) continue;
      const score = 0.4 * weigh(memory.memory_category, memory.memory_subtype, intent);
      candidates.push(
        memoryCandidate(
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
        access_id: newTimeOrderedId('acc'),
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
}

function pickDefined<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
