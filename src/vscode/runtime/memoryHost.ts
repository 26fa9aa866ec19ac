import { mkdir } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { MemoryCore } from '../../core/memoryCore.ts';
import { RuleBasedExtractor } from '../../core/extraction/ruleBasedExtractor.ts';
import { createRuntime } from '../../runtime/createRuntime.ts';
import { createVscodeLmExtractor } from '../extraction/vscodeLmExtractor.ts';
import { setting } from '../config/vscodeSettings.ts';
import type { Log } from '../log.ts';
import { runtimeConfigFromSettings } from '../storage/storageConfig.ts';
import { type Identity, resolveIdentity } from './identity.ts';

export interface ReadyMemory {
  core: MemoryCore;
  identity: Identity;
  /** The embedded store's directory (global storage), also used by the stdio bridge. */
  dataDir: string;
  /** Time from the start of opening to a usable core with the window's session, in ms. */
  openMs: number;
}

/**
 * Owns the window's MemoryCore: opened lazily after activation, reopened when storage, embedding,
 * identity or scope settings change, closed on deactivate. Everything else asks `ready()`.
 */
export class MemoryHost implements vscode.Disposable {
  private readonly context: vscode.ExtensionContext;
  private readonly log: Log;
  private current: Promise<ReadyMemory> | null = null;
  private settled: ReadyMemory | undefined;
  private readonly changed = new vscode.EventEmitter<ReadyMemory | undefined>();
  /** Fires with the new core after (re)opening, and with undefined when the core closes. */
  readonly onDidChange = this.changed.event;

  constructor(context: vscode.ExtensionContext, log: Log) {
    this.context = context;
    this.log = log;
  }

  ready(): Promise<ReadyMemory> {
    this.current ??= this.open();
    return this.current;
  }

  /** The open core if there is one, without opening (status bar, capture before the core is up). */
  peek(): ReadyMemory | undefined {
    return this.settled;
  }

  async reload(reason: string): Promise<ReadyMemory> {
    this.log.info(`Reopening the memory store: ${reason}`);
    await this.close();
    return this.ready();
  }

  /** Applies working-memory budget and policy changes to the live session. */
  async applySessionSettings(): Promise<void> {
    const ready = await this.ready();
    await ready.core.working.initSession(sessionInput(ready.identity));
  }

  async close(): Promise<void> {
    const pending = this.current;
    this.current = null;
    this.settled = undefined;
    if (!pending) return;
    this.changed.fire(undefined);
    let ready: ReadyMemory;
    try {
      ready = await pending;
    } catch (error) {
      // The failed open was already reported by whoever awaited it; there is nothing to close.
      this.log.info(`Nothing to close: the previous open had failed (${String(error)}).`);
      return;
    }
    await ready.core.close();
  }

  dispose(): void {
    void this.close();
    this.changed.dispose();
  }

  private open(): Promise<ReadyMemory> {
    const started = performance.now();
    const attempt = (async () => {
      const dataDir = this.context.globalStorageUri.fsPath;
      await mkdir(dataDir, { recursive: true });
      const identity = await resolveIdentity(this.context);
      const config = await runtimeConfigFromSettings(this.context.secrets, dataDir, identity);
      const core = await createRuntime(config);
      await core.working.initSession(sessionInput(identity));
      // Extraction runs in the background: a Copilot model when the user allowed it, else offline rules.
      const languageModel = createVscodeLmExtractor(vscode, vscode.workspace.getConfiguration('memory'));
      const extraction = await core.startExtraction(languageModel ?? new RuleBasedExtractor());
      core.startMaintenance({
        users: () => [identity.userId],
        onReport: (report) => this.log.info(`Daily maintenance: ${JSON.stringify(report)}`),
        onError: (error) => this.log.warn(`Daily maintenance failed: ${error instanceof Error ? error.message : String(error)}`),
      });
      extraction.resumePending(identity.userId).catch((error: unknown) => this.log.warn(`Resuming pending extraction failed: ${error instanceof Error ? error.message : String(error)}`));
      const ready: ReadyMemory = { core, identity, dataDir, openMs: Math.round(performance.now() - started) };
      this.log.info(
        `Memory store open in ${ready.openMs} ms: ${core.store.kind} in ${dataDir}; user ${identity.userId}; project ${identity.scopeProjectId ?? '(all projects)'}; session ${identity.sessionId}`,
      );
      return ready;
    })();
    // A failed open is not cached: the next ready() tries again (e.g. after the user fixed a setting).
    attempt.then(
      (ready) => {
        if (this.current === attempt) {
          this.settled = ready;
          this.changed.fire(ready);
        }
      },
      () => {
        if (this.current === attempt) this.current = null;
      },
    );
    return attempt;
  }
}

function sessionInput(identity: Identity) {
  return {
    session_id: identity.sessionId,
    user_id: identity.userId,
    ...(identity.scopeProjectId ? { project_id: identity.scopeProjectId } : {}),
    config: { max_tokens: setting('memory.workingMemory.maxTokens'), eviction_policy: setting('memory.workingMemory.evictionPolicy') },
  };
}
