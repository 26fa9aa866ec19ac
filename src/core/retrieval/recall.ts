/**
 * recall_memories (seed 000 §7.1, §8.1) as one pipeline: validation (recallFilter.ts) → query
 * analysis (recallSearch.ts) → per partition: candidates, project scope, text match, neighbours,
 * combined score (partitionSearch.ts) → other projects ranked after the named one (namedScope.ts)
 * → anchor freshness (anchorFreshnessWeighting.ts) → the relevance floor and abstention
 * (relevanceFloor.ts, abstention.ts) → layer precedence → access log, event and answer.
 * Everything up to the limit ranks the candidates' ranking facts (MemoryStore.rankingFacts); full
 * rows are read for the memories returned (candidateRows.ts), for anchored memories whose anchors
 * are checked, and for the merge window when it holds more than one layer.
 */
import type { QueryIntent } from '../api/contextApi.ts';
import type { RecallInput, RecallOutput, RetrievalBreakdown } from '../api/longTermApi.ts';
import type { OverriddenMemory } from '../api/layersApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { AccessLogEntry } from '../domain/records.ts';
import type { MemoryFilter } from '../ports/memoryStore.ts';
import { newTimeOrderedId } from '../util/ids.ts';
import {
  LIMITS,
  requireId,
  requirePositiveInt,
  requireQuery,
  requireStringList,
  requireUnitInterval,
} from '../validation.ts';
import { groupByPartition, scopeRef } from '../layers/layerScope.ts';
import { mergeByPrecedence } from '../layers/precedenceMerge.ts';
import { callScopes } from '../layers/readScopes.ts';
import { recalledRef } from '../memoryEvents.ts';
import { abstentionReport, addBelowFloor, holdBack, nothingBelowFloor } from './abstention.ts';
import { weighByFreshness, weighUnchecked } from './anchorFreshnessWeighting.ts';
import { OTHER_PROJECT_SHARE, rankOutsideAfterScope } from './namedScope.ts';
import { searchPartition } from './partitionSearch.ts';
import { toRecalled } from './recalledMemory.ts';
import { buildRecallFilter } from './recallFilter.ts';
import type { RecallOptions } from './recallOptions.ts';
import { analyseRecallQuery } from './recallSearch.ts';
import { applyRelevanceFloor } from './relevanceFloor.ts';
import { answersHeldWindow } from './heldWindowAnswers.ts';
import { CandidateRows } from './candidateRows.ts';
import { weighTimeAnswers } from './timeAnswerWeighting.ts';
import { timeRuleOn } from './timeRuleSwitches.ts';
import { byScore, type RankedCandidate, type ScoredMemory } from './scoredMemory.ts';

export type { RecallOptions } from './recallOptions.ts';
export type { ScoredMemory } from './scoredMemory.ts';
export { toRecalled } from './recalledMemory.ts';

/** How many results past the limit the layer merge looks at, as a multiple of the limit. */
const MERGE_WINDOW = 3;

/** recall_memories (seed 000 §7.1, §8.1): candidates from every signal, one composite score, access logged. */
export class Recall {
  private readonly deps: CoreDeps;

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  async recall(
    input: RecallInput,
    options: RecallOptions,
  ): Promise<RecallOutput & { scored: ScoredMemory[]; intent: QueryIntent }> {
    const userId = requireId(input.user_id, 'user_id');
    const query = requireQuery(input.query);
    const limit = requirePositiveInt(input.limit, 'limit', 10, LIMITS.recallLimit);
    const minScore = requireUnitInterval(input.min_similarity, 'min_similarity', this.deps.config.relevanceFloor);
    const alternates = requireStringList(
      input.alternate_queries,
      'alternate_queries',
      LIMITS.alternateQueries,
      LIMITS.queryChars,
    );
    const now = this.deps.clock.now();
    const filter = buildRecallFilter(userId, input, options.defaultProjectId);
    const scopes = callScopes(input, userId, filter.project_id, this.deps.config.layerDefaults);
    const { search, timeHint, embeddingError } = await analyseRecallQuery(this.deps, input, options, {
      query,
      alternates,
      limit,
      minScore,
      filter,
      now,
    });

    // One search per partition: the user's own (user, agent and session layers) and each shared layer's.
    const scored: RankedCandidate[] = [];
    const rows = new CandidateRows(this.deps.store);
    let considered = 0;
    let vectorMethod: string | null = null;
    const belowFloor = nothingBelowFloor();
    for (const [partition, group] of groupByPartition(scopes)) {
      const { project_id: _project, ...sharedFilter } = filter;
      const scoped: MemoryFilter = {
        ...(partition === userId ? filter : sharedFilter),
        user_id: partition,
        scopes: group.map(scopeRef),
      };
      const found = await searchPartition(this.deps, scoped, search, rows);
      scored.push(...found.scored);
      considered += found.considered;
      addBelowFloor(belowFloor, found.belowFloor);
      vectorMethod ??= found.vectorMethod;
    }
    rankOutsideAfterScope(scored, (entry) => entry.breakdown.signals.includes('other_project'), OTHER_PROJECT_SHARE);
    scored.sort(byScore);
    if (timeRuleOn('anchorFreshnessWeighting')) await weighByFreshness(this.deps, scored, limit, rows);
    // A question naming a time the memories hold asks what happened then: answered, like one asking
    // when, by a memory that says when (timeAnswerWeighting.ts). Only the candidates covering the
    // window carry the signal "time", so a window no memory is in changes nothing.
    const holdsWindow = scored.some((entry) => entry.breakdown.signals.includes('time'));
    const namesHeldWindow = timeRuleOn('windowTimeAnswers') && holdsWindow;
    if (timeRuleOn('timeAnswerWeighting')) await weighTimeAnswers(query, scored, limit, rows, namesHeldWindow);
    // Abstain unless one candidate clears the floor; partial matches then go with it, marked. A
    // question naming a time the memories hold is answered by that time's matches instead
    // (heldWindowAnswers.ts); an explicit min_similarity stays a bar for every result.
    const windowAnswers =
      holdsWindow && input.min_similarity === undefined && timeRuleOn('heldWindowAnswers')
        ? answersHeldWindow
        : undefined;
    const floor = applyRelevanceFloor(scored, minScore, windowAnswers);
    for (const held of floor.heldBack) holdBack(belowFloor, held.facts.memory_id, held.score);
    for (const entry of floor.partial) entry.breakdown.signals.push('partial');
    // More specific layers override conflicting less specific ones (seed 001); a window past the
    // limit leaves room for the results an override removes. Overrides compare texts, so a window of
    // several layers is read whole; with one layer nothing can override anything.
    const mergeWindow = floor.kept.slice(0, limit * MERGE_WINDOW);
    const { kept, overrides } =
      new Set(mergeWindow.map((entry) => entry.facts.layer)).size < 2
        ? { kept: mergeWindow, overrides: new Map<string, OverriddenMemory[]>() }
        : mergeByPrecedence(await rows.readAll(mergeWindow), this.deps.config.dedupThreshold);
    const top = await rows.firstWithRows(kept, limit);
    await weighUnchecked(this.deps, top);

    if (options.logAccess !== false && top.length > 0)
      this.logAccess(top, input.session_id ?? null, query, options.tool, now);
    if (options.announce !== false) {
      this.deps.events.emit({
        type: 'recall',
        user_id: userId,
        query,
        returned: top.length,
        tool: options.tool,
        memories: top.map((entry) => recalledRef(entry.memory)),
      });
    }

    const { window, hint } = search;
    const mode = !this.deps.embeddings.provider
      ? 'lexical'
      : embeddingError === undefined
        ? 'hybrid'
        : `lexical (embedding unavailable: ${embeddingError})`;
    const breakdown: RetrievalBreakdown = {
      by_category: countBy(top, (entry) => entry.memory.memory_category),
      by_subtype: countBy(top, (entry) => entry.memory.memory_subtype),
      entity_matches: top.filter((entry) => entry.breakdown.matched_entities.length > 0).length,
      semantic_matches: top.filter(
        (entry) => entry.breakdown.semantic !== null && entry.breakdown.semantic >= search.vectorOnlyMinSimilarity,
      ).length,
      text_matches: top.filter((entry) => entry.breakdown.text_match > 0).length,
      candidates_considered: considered,
      mode,
      vector_method: vectorMethod,
      embedding_model: this.deps.embeddings.model,
      time_filter: window || hint ? { ...(window ?? hint), matched: timeHint.matched } : null,
      searched_layers: scopes.map((scope) => scope.layer),
      overridden: [...overrides.values()].reduce((sum, list) => sum + list.length, 0),
      ...abstentionReport(belowFloor, minScore, top.length),
    };
    const memories = top.map((entry) => {
      const recalled = toRecalled(entry);
      const overridden = overrides.get(entry.memory.memory_id);
      return overridden ? { ...recalled, overrides: overridden } : recalled;
    });
    return { memories, retrieval_breakdown: breakdown, scored: top, intent: search.intent };
  }

  private logAccess(
    top: readonly ScoredMemory[],
    sessionId: string | null,
    query: string,
    tool: string,
    now: Date,
  ): void {
    const at = now.toISOString();
    const entries: AccessLogEntry[] = top.map((entry) => ({
      access_id: newTimeOrderedId('acc'),
      memory_id: entry.memory.memory_id,
      session_id: sessionId,
      user_id: entry.memory.user_id,
      query_text: query,
      similarity_score: entry.similarity,
      tool,
      accessed_at: at,
    }));
    this.deps.access.record(entries);
  }
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
