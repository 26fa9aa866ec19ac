import * as vscode from 'vscode';
import type { Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';
import { describeStatus, type StatusSnapshot } from './statusText.ts';
import { RefreshThrottle } from './refreshThrottle.ts';
import { watchChanges } from '../../panel/changeWatcher.ts';

const HEALTH_INTERVAL_MS = 60_000;
const REFRESH_DELAY_MS = 400;
/** How often writes by other processes (an agent's own MCP server, `fml import`) are looked for. */
const CHANGE_POLL_MS = 3_000;

/** Backend, health, memory count and working-memory use; a click opens the panel. */
export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly host: MemoryHost;
  private readonly log: Log;
  private readonly subscriptions: vscode.Disposable[] = [];
  private coreEvents: { dispose(): void } | undefined;
  private readonly throttle = new RefreshThrottle(() => void this.refresh(), REFRESH_DELAY_MS);
  private readonly interval: ReturnType<typeof setInterval>;
  private lastError: string | null = null;

  constructor(host: MemoryHost, log: Log) {
    this.host = host;
    this.log = log;
    this.item = vscode.window.createStatusBarItem('memory.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Firebolt Memory';
    this.item.command = 'memory.showPanel';
    this.render({ state: 'starting' });
    this.item.show();
    this.subscriptions.push(
      host.onDidChange((ready) => {
        this.coreEvents?.dispose();
        // This window's writes arrive as events; other processes' (an import by the CLI or an
        // agent's MCP server) move the store's change token, polled like the panel does.
        this.coreEvents = ready
          ? watchChanges(
              ready.core,
              () => ready.identity.userId,
              () => this.schedule(),
              (message) => this.log.warn(message),
              CHANGE_POLL_MS,
            )
          : undefined;
        if (ready) this.schedule();
        else this.render({ state: 'starting' });
      }),
    );
    this.interval = setInterval(() => this.schedule(), HEALTH_INTERVAL_MS);
  }

  /** Shows an open failure until the next successful refresh. */
  showError(message: string): void {
    this.lastError = message;
    this.render({ state: 'error', message });
  }

  schedule(): void {
    this.throttle.schedule();
  }

  /** The text currently shown, for the e2e probe. */
  get text(): string {
    return this.item.text;
  }

  async refresh(): Promise<void> {
    const ready = this.host.peek();
    if (!ready) return;
    try {
      const [stats, working] = await Promise.all([
        ready.core.stats(ready.identity.userId),
        ready.core.workingState(ready.identity.sessionId, ready.identity.userId),
      ]);
      this.lastError = null;
      this.render({
        state: 'ready',
        backend: stats.backend.kind,
        health: stats.backend.status,
        healthDetail: stats.backend.detail,
        memories: stats.memories,
        workingTokens: working.total_tokens,
        workingBudget: working.max_tokens,
        project: ready.identity.scopeProjectId ?? null,
      });
    } catch (error) {
      this.log.warn(`Status refresh failed: ${String(error)}`);
      this.render({ state: 'error', message: this.lastError ?? String(error) });
    }
  }

  dispose(): void {
    this.throttle.dispose();
    clearInterval(this.interval);
    this.coreEvents?.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }

  private render(snapshot: StatusSnapshot): void {
    const view = describeStatus(snapshot);
    this.item.text = view.text;
    this.item.tooltip = new vscode.MarkdownString(view.tooltip);
    this.item.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }
}
