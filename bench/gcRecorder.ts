/**
 * Preloaded into each `bench:load` server by `--gc` (`node --import bench/gcRecorder.ts`): notes
 * the wall-clock time, kind and pause of every garbage collection, and at exit writes them to
 * `$FML_BENCH_GC_DIR/gc-<pid>.json`, which load.ts counts over its load phase. Collections per
 * operation follow what an operation allocates, not what else the machine runs: a measure that
 * holds on a shared box where CPU time per operation moves by 10 % from run to run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export interface GcEvent {
  /** Start, in ms since the epoch (Date.now()'s clock, shared with the load generator). */
  atMs: number;
  kind: 'scavenge' | 'mark-compact' | 'incremental marking' | 'weak callbacks' | 'other';
  /** The pause of the main thread, ms. */
  ms: number;
}

const KINDS = new Map<number, GcEvent['kind']>([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'scavenge'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'mark-compact'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental marking'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
]);

const directory = process.env.FML_BENCH_GC_DIR;
if (directory !== undefined) {
  const events: GcEvent[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Node's gc entries carry the collection's kind in `detail` (not in the DOM type PerformanceEntry).
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
      const kind = KINDS.get(detail?.kind ?? -1) ?? 'other';
      events.push({ atMs: performance.timeOrigin + entry.startTime, kind, ms: entry.duration });
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => writeFileSync(join(directory, `gc-${process.pid}.json`), JSON.stringify(events)));
}
