import type { ScoreBreakdown } from '../api/longTermApi.ts';
import type { RankingFacts } from '../domain/rankingFacts.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { AnchorReport } from '../anchors/anchorModel.ts';

/** A candidate scored on its ranking facts (rankingFacts.ts), before its full row is read. */
export interface RankedCandidate {
  /** The store partition the memory lives in (the user id, or a shared layer's), to read its row from. */
  partition: string;
  facts: RankingFacts;
  score: number;
  similarity: number;
  breakdown: ScoreBreakdown;
  /** Vocabulary bridges that carried part of the match ("database ← postgresql"), for why_matched. */
  bridges: string[];
  /** The score the relevance floor is compared with (relevanceFloor.ts). */
  gate: number;
  /** A turn of a marked conversation (conversationKey.ts), for the floor's partial matches. */
  dialogTurn: boolean;
  /** The query's index terms the memory matched, for the floor's partial statements (relevanceFloor.ts). */
  matchedTerms: readonly string[];
  /** The memory's code anchors with their status; absent when it has none or they were not checked. */
  anchors?: AnchorReport[];
}

/** A recalled memory before it is shaped for output, with its full row, kept for context assembly. */
export interface ScoredMemory extends RankedCandidate {
  memory: MemoryRecord;
}

/**
 * Best score first; equal scores newest first (created_at's instant: the stored strings are
 * canonical ISO times, whose order it is).
 */
export function byScore(a: RankedCandidate, b: RankedCandidate): number {
  return b.score - a.score || b.facts.created_ms - a.facts.created_ms;
}
