import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Self and total (inclusive) time per function from a V8 `.cpuprofile` (node --cpu-prof),
 * restricted to a time window so the load phase is not mixed with start-up and session opening.
 * Frames of the bundled CLI are mapped back to their source file and line through its source map.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimeRow {
  name: string;
  where: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  windowMs: number;
  sampledMs: number;
  /** Sampled time under the excluded function, not in `sampledMs` nor the rows. */
  excludedMs: number;
  /** Time spent in the function itself, most first. */
  rows: SelfTimeRow[];
  /** Time spent in the function and everything it called (a recursive function counted once). */
  totals: SelfTimeRow[];
}

/**
 * `window` is in microseconds of the monotonic clock (process.hrtime), which is the clock V8
 * stamps its samples with on Linux; a window that holds no sample falls back to the whole profile.
 */
export function summarizeProfile(
  file: string,
  window: { fromUs: number; toUs: number } | ReadonlyArray<{ fromUs: number; toUs: number }> | null,
  top: number,
  /** Samples under a function of this name (background work that ran inside the windows) are counted apart. */
  exclude?: string,
): ProfileSummary {
  // Several windows (the spans of one tool's calls, say) are summed; they must be sorted and apart.
  const windows = window === null ? [] : 'fromUs' in window ? [window] : window;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const excluded = new Map<number, boolean>();
  const isExcluded = (nodeId: number): boolean => {
    let found = excluded.get(nodeId);
    if (found === undefined) {
      found = false;
      for (let at: number | undefined = nodeId; at !== undefined && !found; at = parent.get(at))
        found = byId.get(at)!.callFrame.functionName === exclude;
      excluded.set(nodeId, found);
    }
    return found;
  };
  let excludedUs = 0;
  const collect = (spans: ReadonlyArray<{ fromUs: number; toUs: number }>): number => {
    selfUs.clear();
    excludedUs = 0;
    let at = profile.startTime;
    let total = 0;
    let span = 0;
    for (let index = 0; index < profile.samples.length; index++) {
      at += profile.timeDeltas[index];
      // A sample's delta is the time since the previous one: the time this frame was on the CPU.
      const next = profile.timeDeltas[index + 1] ?? 0;
      while (span < spans.length && spans[span].toUs < at) span++;
      if (span >= spans.length || at < spans[span].fromUs) continue;
      if (exclude !== undefined && isExcluded(profile.samples[index])) {
        excludedUs += next;
        continue;
      }
      selfUs.set(profile.samples[index], (selfUs.get(profile.samples[index]) ?? 0) + next);
      total += next;
    }
    return total;
  };
  let totalUs = windows.length > 0 ? collect(windows) : 0;
  let windowUs = windows.reduce((sum, span) => sum + span.toUs - span.fromUs, 0);
  if (totalUs === 0) {
    totalUs = collect([{ fromUs: -Infinity, toUs: Infinity }]);
    windowUs = profile.endTime - profile.startTime;
  }
  const mapper = new FrameMapper();
  const keyOf = new Map<number, { key: string; name: string; where: string }>();
  const describe = (nodeId: number) => {
    let described = keyOf.get(nodeId);
    if (described === undefined) {
      const frame = byId.get(nodeId)!.callFrame;
      const name = frame.functionName || '(anonymous)';
      const where = mapper.locate(frame.url, frame.lineNumber, frame.columnNumber);
      described = { key: `${name}@${where}`, name, where };
      keyOf.set(nodeId, described);
    }
    return described;
  };
  const rows = new Map<string, SelfTimeRow>();
  const totals = new Map<string, SelfTimeRow>();
  const add = (into: Map<string, SelfTimeRow>, described: { key: string; name: string; where: string }, us: number) => {
    const row = into.get(described.key) ?? { name: described.name, where: described.where, ms: 0, share: 0 };
    row.ms += us / 1000;
    into.set(described.key, row);
  };
  for (const [nodeId, us] of selfUs) {
    add(rows, describe(nodeId), us);
    const seen = new Set<string>();
    for (let at: number | undefined = nodeId; at !== undefined; at = parent.get(at)) {
      const described = describe(at);
      if (described.name === '(root)' || seen.has(described.key)) continue;
      seen.add(described.key);
      add(totals, described, us);
    }
  }
  const ranked = (from: Map<string, SelfTimeRow>) => {
    const sorted = [...from.values()].sort((a, b) => b.ms - a.ms).slice(0, top);
    for (const row of sorted) row.share = totalUs > 0 ? (row.ms * 1000) / totalUs : 0;
    return sorted;
  };
  return {
    windowMs: windowUs / 1000,
    sampledMs: totalUs / 1000,
    excludedMs: excludedUs / 1000,
    rows: ranked(rows),
    totals: ranked(totals),
  };
}

/** Maps bundle positions to source positions, loading each bundle's `.map` once. */
class FrameMapper {
  private readonly maps = new Map<string, SourceMap | null>();

  locate(url: string, line: number, column: number): string {
    if (!url) return '';
    const path = url.startsWith('file:') ? fileURLToPath(url) : url;
    const map = this.mapFor(path);
    if (map && line >= 0) {
      const entry = map.findEntry(line, column);
      if ('originalSource' in entry && entry.originalSource)
        return `${shorten(entry.originalSource)}:${entry.originalLine + 1}`;
    }
    return `${shorten(path)}:${line + 1}`;
  }

  private mapFor(path: string): SourceMap | null {
    if (!this.maps.has(path)) {
      const mapFile = `${path}.map`;
      this.maps.set(
        path,
        path.startsWith('/') && existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null,
      );
    }
    return this.maps.get(path)!;
  }
}

/** The part of a path worth reading: from src/ or node_modules/ on. */
function shorten(path: string): string {
  const marker = /(?:^|\/)(src\/|node_modules\/)/.exec(path);
  return marker ? path.slice(marker.index + (marker[0].startsWith('/') ? 1 : 0)) : path;
}
