import type { CountPoint } from '../shared/panelProtocol.ts';

const HOUR_MS = 3_600_000;
const HOURS = 24;

/**
 * Recalls this process served (agent and panel searches alike), per hour, for the overview chart.
 * The store's access log records memories read, not questions asked, and is skipped for panel
 * searches, so the core's recall events are the only count of recalls.
 */
export class RecallActivity {
  private readonly times: number[] = [];

  record(at: number): void {
    this.times.push(at);
    const horizon = at - HOURS * HOUR_MS;
    while (this.times.length > 0 && this.times[0] < horizon) this.times.shift();
  }

  series(now: number): CountPoint[] {
    const end = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
    const start = end - HOURS * HOUR_MS;
    const counts = new Array<number>(HOURS).fill(0);
    for (const time of this.times) {
      const bucket = Math.floor((time - start) / HOUR_MS);
      if (bucket >= 0 && bucket < HOURS) counts[bucket]++;
    }
    return counts.map((count, index) => ({ start: new Date(start + index * HOUR_MS).toISOString(), count }));
  }
}
