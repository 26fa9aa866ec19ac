import type { SessionRecord } from '../domain/records.ts';

/** Seed 002: every this many conversation turns, one episodic summary is stored. */
export const EPISODE_TURNS = 20;

/** Working-item metadata key holding the turn number of a message (1, 2, …, per session). */
export const CONVERSATION_TURN = 'conversation_turn';

/**
 * Session config keys of the turn counter. The counter lives in the session row so it survives
 * restarts and is committed atomically with the turn that advances it; items cannot serve as the
 * count, because eviction removes them from working memory.
 */
const TURNS_KEY = 'conversation_turns';
const EPISODE_STARTED_KEY = 'episode_started_at';

/** A conversation turn: a message newly added to working memory (a replaced message is the same turn). */
export function countsAsTurn(contentType: string, replacesItem: boolean): boolean {
  return contentType === 'message' && !replacesItem;
}

/** The session config after one more turn, and the turn's number. */
export function advanceTurn(session: SessionRecord, nowIso: string): { turn: number; config: Record<string, unknown> } {
  const previous = typeof session.config[TURNS_KEY] === 'number' ? (session.config[TURNS_KEY] as number) : 0;
  const turn = previous + 1;
  const startsEpisode = (turn - 1) % EPISODE_TURNS === 0;
  return {
    turn,
    config: { ...session.config, [TURNS_KEY]: turn, ...(startsEpisode ? { [EPISODE_STARTED_KEY]: nowIso } : {}) },
  };
}

/** When the episode that `session`'s latest turn belongs to began (its first turn was added). */
export function episodeStartedAt(session: SessionRecord): string | null {
  const value = session.config[EPISODE_STARTED_KEY];
  return typeof value === 'string' ? value : null;
}

export function completesEpisode(turn: number): boolean {
  return turn % EPISODE_TURNS === 0;
}
