import type { MemoryRecord } from '../domain/records.ts';
import type { AnchorChecker } from './anchorChecker.ts';
import { anchorsOf, type AnchorReport, type ReportedStatus, reportOf } from './anchorModel.ts';

/**
 * How much of its score a memory keeps, by its worst anchor: code that changed or is gone makes the
 * memory less likely to be true, so it ranks lower; it is never hidden or deleted (issue #18).
 */
export const STATUS_WEIGHT: Record<ReportedStatus, number> = {
  fresh: 1,
  moved: 1,
  unchecked: 1,
  changed: 0.6,
  gone: 0.4,
};

/** Each anchor of the memory with its status: checked now when this process has a workspace, else as last stored. */
export async function anchorReports(
  memory: Pick<MemoryRecord, 'metadata'>,
  checker: AnchorChecker | null,
): Promise<AnchorReport[]> {
  const anchors = anchorsOf(memory.metadata);
  const reports: AnchorReport[] = [];
  for (const anchor of anchors) reports.push(reportOf(anchor, checker ? await checker.check(anchor) : null));
  return reports;
}

export function freshnessWeight(reports: readonly AnchorReport[]): number {
  return reports.reduce((weight, report) => Math.min(weight, STATUS_WEIGHT[report.status]), 1);
}

/**
 * The sentence context and recall put before a memory whose code changed or is gone, so an agent
 * never takes it for current; null when its anchors are fresh, moved or unchecked.
 */
export function staleNote(reports: readonly AnchorReport[]): string | null {
  const gone = reports.filter((report) => report.status === 'gone');
  const changed = reports.filter((report) => report.status === 'changed');
  if (gone.length === 0 && changed.length === 0) return null;
  const parts = [
    ...(changed.length > 0 ? [`refers to code changed since it was stored (${changed.map(describe).join(', ')})`] : []),
    ...(gone.length > 0 ? [`refers to code that no longer exists (${gone.map(describe).join(', ')})`] : []),
  ];
  return `[${parts.join('; ')}]`;
}

function describe(report: AnchorReport): string {
  return report.symbol
    ? `${report.path} ${report.symbol.name}`
    : `${report.path}:${report.lines.start}-${report.lines.end}`;
}
