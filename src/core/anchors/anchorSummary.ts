import { anchorsOf, type AnchorReport, type ReportedStatus } from './anchorModel.ts';

/** Worst first: what a list shows of a memory with several anchors. */
const SEVERITY: readonly ReportedStatus[] = ['gone', 'changed', 'moved', 'unchecked', 'fresh'];

export interface AnchorSummary {
  /** The worst status among the memory's anchors. */
  status: ReportedStatus;
  /** One line per anchor: "src/a.ts parseConfig: changed". */
  details: string;
}

/**
 * The code status the panel shows for a memory: from a recall's live reports when there are, else
 * from what the editor last stored in its metadata; null for a memory with no anchors. Pure, so the
 * webview uses it too.
 */
export function anchorSummary(
  metadata: Record<string, unknown>,
  reports?: readonly AnchorReport[],
): AnchorSummary | null {
  const list: ReadonlyArray<Pick<AnchorReport, 'path' | 'symbol' | 'lines' | 'status' | 'current'>> =
    reports ??
    anchorsOf(metadata).map((anchor) => ({
      path: anchor.path,
      symbol: anchor.symbol,
      lines: anchor.lines,
      status: anchor.status ?? 'unchecked',
      current: anchor.current,
    }));
  if (list.length === 0) return null;
  const status = SEVERITY.find((candidate) => list.some((anchor) => anchor.status === candidate)) ?? 'unchecked';
  const details = list
    .map((anchor) => {
      const where = anchor.symbol
        ? `${anchor.path} ${anchor.symbol.name}`
        : `${anchor.path}:${anchor.lines.start}-${anchor.lines.end}`;
      const now =
        anchor.current && anchor.current.path !== anchor.path
          ? ` (now ${anchor.current.path}:${anchor.current.lines.start})`
          : '';
      return `${where}: ${anchor.status}${now}`;
    })
    .join('\n');
  return { status, details };
}
