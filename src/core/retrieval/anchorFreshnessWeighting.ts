/**
 * The anchor-freshness signal: anchored memories get their anchors' status (checked now when this
 * process has a workspace, cached on file modification; else as the editor last stored it) and lose
 * score when their code changed or is gone (anchorFreshness.ts). Memories without anchors cost
 * nothing: their ranking facts say so (RankingFacts.anchored), and only an anchored memory's row is
 * read, for its anchors.
 */
import type { CoreDeps } from '../coreDeps.ts';
import { anchorReports, freshnessWeight } from '../anchors/anchorFreshness.ts';
import { anchorsOf } from '../anchors/anchorModel.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { CandidateRows } from './candidateRows.ts';
import { byScore, type RankedCandidate, type ScoredMemory } from './scoredMemory.ts';

type AnchorDeps = Pick<CoreDeps, 'anchors'>;

/**
 * Weights only lower a score, so candidates are checked best first until `settle` checked ones
 * score at least the next unchecked candidate could: nothing below can reach the results, and a
 * recall checks about `limit` memories' anchors, not every candidate's. Leaves `scored` sorted.
 */
export async function weighByFreshness(
  deps: AnchorDeps,
  scored: RankedCandidate[],
  settle: number,
  rows: CandidateRows,
): Promise<void> {
  const weighed: number[] = [];
  // The first `settle` candidates are always checked: their anchored ones' rows in one read.
  await rows.readAll(scored.slice(0, settle).filter((entry) => entry.facts.anchored));
  for (const entry of scored) {
    if (weighed.filter((score) => score >= entry.score).length >= settle) break;
    // A memory forgotten since it was scored has no row: it is left out when the answer's rows are read.
    const memory = entry.facts.anchored ? (await rows.read(entry))?.memory : undefined;
    if (memory) await weighAnchors(deps, entry, memory);
    weighed.push(entry.score);
  }
  scored.sort(byScore);
}

/** An override can pull in a result past the settled ones: every unchecked anchored result is checked before it is returned. */
export async function weighUnchecked(deps: AnchorDeps, top: ScoredMemory[]): Promise<void> {
  if (!top.some((entry) => entry.anchors === undefined && anchorsOf(entry.memory.metadata).length > 0)) return;
  for (const entry of top) if (entry.anchors === undefined) await weighAnchors(deps, entry, entry.memory);
  top.sort(byScore);
}

async function weighAnchors(deps: AnchorDeps, entry: RankedCandidate, memory: MemoryRecord): Promise<void> {
  const reports = await anchorReports(memory, deps.anchors);
  if (reports.length === 0) return;
  entry.anchors = reports;
  entry.score *= freshnessWeight(reports);
}
