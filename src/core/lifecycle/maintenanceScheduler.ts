import type { CoreDeps } from '../coreDeps.ts';
import { type MaintenanceOptions, type MaintenanceReport, runDailyMaintenance } from './maintenance.ts';

export interface MaintenanceSchedulerOptions {
  /** Users to maintain on each run; the extension passes its one user, the CLI its configured users. */
  users: () => readonly string[] | Promise<readonly string[]>;
  /** Default: once a day. */
  intervalMs?: number;
  maintenance?: MaintenanceOptions;
  onReport?: (report: MaintenanceReport) => void;
  /** Where a failed run is reported; defaults to stderr, never swallowed. */
  onError?: (error: unknown, userId: string | null) => void;
}

const DAY_MS = 86_400_000;

/**
 * Runs daily maintenance on a timer. The timer is unref'd, so it never keeps a CLI or test
 * process alive, and runs never overlap: a slow run makes the next tick skip, not pile up.
 */
export class MaintenanceScheduler {
  private readonly deps: CoreDeps;
  private readonly options: MaintenanceSchedulerOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<MaintenanceReport[]> | null = null;

  constructor(deps: CoreDeps, options: MaintenanceSchedulerOptions) {
    this.deps = deps;
    this.options = options;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs ?? DAY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  get started(): boolean {
    return this.timer !== undefined;
  }

  /** One run over every user now; reports of users whose run failed are absent (see onError). */
  runOnce(): Promise<MaintenanceReport[]> {
    if (this.running) return this.running;
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<MaintenanceReport[]> {
    const reports: MaintenanceReport[] = [];
    let users: readonly string[];
    try {
      users = await this.options.users();
    } catch (error) {
      this.report(error, null);
      return reports;
    }
    for (const userId of users) {
      try {
        const report = await runDailyMaintenance(this.deps, userId, this.options.maintenance);
        reports.push(report);
        this.options.onReport?.(report);
      } catch (error) {
        // One user's failure (a backend hiccup) must not stop the others' maintenance.
        this.report(error, userId);
      }
    }
    return reports;
  }

  private report(error: unknown, userId: string | null): void {
    if (this.options.onError) this.options.onError(error, userId);
    else this.deps.log.error(`maintenance failed${userId ? ` for ${userId}` : ''}`, error);
  }
}
