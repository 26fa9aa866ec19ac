import type { ScoreBreakdown } from '../api/longTermApi.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { AnchorReport } from '../anchors/anchorModel.ts';

/** A recalled memory before it is shaped for output, kept for context assembly. */
export interface ScoredMemory {
  memory: MemoryRecord;
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
  /** The memory's code anchors with their status; absent when it has none. */
  anchors?: AnchorReport[];
}

/** Best score first; equal scores newest first. */
export function byScore(a: ScoredMemory, b: ScoredMemory): number {
  return b.score - a.score || b.memory.created_at.localeCompare(a.memory.created_at);
}
