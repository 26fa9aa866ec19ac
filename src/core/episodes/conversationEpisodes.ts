import type { CoreDeps } from '../coreDeps.ts';
import type { SessionRecord } from '../domain/records.ts';
import { RuleBasedExtractor } from '../extraction/ruleBasedExtractor.ts';
import type { MemoryExtractor } from '../extraction/extractor.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { LruCache } from '../util/lruCache.ts';
import { CONVERSATION_TURN, EPISODE_TURNS } from './conversationTurns.ts';
import { type EpisodeTurn, summarizeEpisode } from './episodeSummary.ts';

/** Tag of every episode summary memory. */
export const EPISODE_TAG = 'episode-summary';

export interface CompletedEpisode {
  session: SessionRecord;
  /** Number of the turn that completed the episode (20, 40, …). */
  turn_end: number;
  /** When the episode's first turn was added; turns promoted to long-term since then are searched. */
  started_at: string | null;
}

/** What WorkingMemory tells about turns: those leaving working memory, and each completed run. */
export interface EpisodeSink {
  turnsEvicted(sessionId: string, items: ReadonlyArray<{ content: string; metadata: Record<string, unknown> }>): void;
  episodeCompleted(episode: CompletedEpisode): void;
}

/** Sessions whose evicted turns are held, and characters kept per turn: enough for a summary. */
const HELD_SESSIONS = 1_000;
const HELD_TURN_CHARS = 4_000;

/**
 * Seed 002 episodic summaries: every EPISODE_TURNS conversation turns of a session, one summary
 * memory (episodic.conversation) is stored, off the request path. It is stored in addition to the
 * turns, never instead: the turns stay in working memory and are promoted as always. The turns of
 * the run are read where they are: in working memory, or already promoted to long-term memory
 * (promotion keeps each turn's number in its metadata).
 */
export class ConversationEpisodes implements EpisodeSink {
  private readonly deps: CoreDeps;
  private readonly longTerm: LongTermMemory;
  private readonly extractorOf: () => MemoryExtractor | null;
  private readonly offline = new RuleBasedExtractor();
  private readonly running = new Set<Promise<void>>();
  /**
   * Turns evicted from working memory before their run is summarised, per session. Eviction
   * deletes turns not worth a memory of their own (questions, small talk), yet they are part of
   * the conversation a summary tells; held in memory only, so a restart mid-run loses them (the
   * summary's turns_included then says how many turns it saw).
   */
  private readonly evicted = new LruCache<string, Map<number, string>>({ maxEntries: HELD_SESSIONS });

  /** `extractorOf`: the extractor the server runs (a model when allowed), or null for the offline rules. */
  constructor(deps: CoreDeps, longTerm: LongTermMemory, extractorOf: () => MemoryExtractor | null) {
    this.deps = deps;
    this.longTerm = longTerm;
    this.extractorOf = extractorOf;
  }

  turnsEvicted(sessionId: string, items: ReadonlyArray<{ content: string; metadata: Record<string, unknown> }>): void {
    for (const item of items) {
      const turn = item.metadata[CONVERSATION_TURN];
      if (typeof turn !== 'number') continue;
      const held = this.evicted.get(sessionId) ?? new Map<number, string>();
      held.set(turn, item.content.slice(0, HELD_TURN_CHARS));
      this.evicted.set(sessionId, held);
    }
  }

  episodeCompleted(episode: CompletedEpisode): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.summarize(episode))
      .catch((error: unknown) => {
        // The turns themselves are kept whatever happens here; only the summary is missing.
        this.deps.log.error(
          `summarising turns ${episode.turn_end - EPISODE_TURNS + 1}–${episode.turn_end} of ${episode.session.session_id} failed`,
          error,
        );
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Waits for every summary being written (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private async summarize(episode: CompletedEpisode): Promise<void> {
    const { session } = episode;
    const range = { start: episode.turn_end - EPISODE_TURNS + 1, end: episode.turn_end };
    const turns = await this.turnsOf(session, range, episode.started_at);
    if (turns.length === 0) return;
    const context = { user_id: session.user_id, session_id: session.session_id, project_id: session.project_id };
    const chosen = this.extractorOf() ?? this.offline;
    let summarizedBy = chosen.name;
    let content: string;
    try {
      content = await summarizeEpisode(turns, range, chosen, context);
    } catch (error) {
      if (chosen === this.offline) throw error;
      // A model that is down or refuses must not cost the episode its summary: the rules write it.
      this.deps.log.warn(`episode summary by ${chosen.name} failed, using the offline rules`, error);
      summarizedBy = this.offline.name;
      content = await summarizeEpisode(turns, range, this.offline, context);
    }
    await this.longTerm.store({
      user_id: session.user_id,
      content,
      memory_category: 'episodic',
      memory_subtype: 'conversation',
      importance: 0.5,
      metadata: {
        tags: [EPISODE_TAG],
        episode: {
          session_id: session.session_id,
          turn_start: range.start,
          turn_end: range.end,
          turns_included: turns.length,
          summarized_by: summarizedBy,
        },
      },
      project_id: session.project_id,
      session_id: session.session_id,
      source_type: 'inferred',
    });
  }

  /** The turns numbered in `range`, from working memory and from their promoted long-term copies. */
  private async turnsOf(
    session: SessionRecord,
    range: { start: number; end: number },
    startedAt: string | null,
  ): Promise<EpisodeTurn[]> {
    const byTurn = new Map<number, string>();
    const take = (metadata: Record<string, unknown>, content: string) => {
      const turn = metadata[CONVERSATION_TURN];
      if (typeof turn === 'number' && turn >= range.start && turn <= range.end && !byTurn.has(turn))
        byTurn.set(turn, content);
    };
    for (const item of await this.deps.store.listWorkingItems(session.session_id)) take(item.metadata, item.content);
    const held = this.evicted.get(session.session_id);
    if (held) {
      for (const [turn, content] of held) take({ [CONVERSATION_TURN]: turn }, content);
      for (const turn of [...held.keys()]) if (turn <= range.end) held.delete(turn);
      if (held.size === 0) this.evicted.delete(session.session_id);
    }
    if (byTurn.size < EPISODE_TURNS && startedAt !== null) {
      const promoted = await this.deps.store.listMemories({
        filter: {
          user_id: session.user_id,
          source_types: ['working_memory'],
          after: startedAt,
          state: 'all',
          include_superseded: true,
        },
        sort: 'created',
        offset: 0,
        limit: 1_000,
      });
      for (const memory of promoted.items)
        if (memory.source_session === session.session_id) take(memory.metadata, memory.content);
    }
    return [...byTurn].sort(([a], [b]) => a - b).map(([turn, content]) => ({ turn, content }));
  }
}
