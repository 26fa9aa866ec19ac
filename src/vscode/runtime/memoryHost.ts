import { mkdir } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { CoreSurface } from '../../core/coreSurface.ts';
import { describeBackend } from '../../runtime/backendSelection.ts';
import { setting } from '../config/vscodeSettings.ts';
import type { Log } from '../log.ts';
import { runtimeConfigFromSettings } from '../storage/storageConfig.ts';
import { type CoreRuntime, releaseRuntime } from './coreRuntime.ts';
import { type Identity, rememberSessionForReload, resolveIdentity } from './identity.ts';
import { openCoreRuntime } from './openCoreRuntime.ts';

export interface ReadyMemory {
  /** The window's core: in the background memory process (normally) or in this process. */
  core: CoreSurface;
  runtime: CoreRuntime;
  identity: Identity;
  /** The embedded store's directory (global storage), also used by the stdio bridge. */
  dataDir: string;
  /** The store as the panel names it, e.g. "sqlite in /…/globalStorage/…" (no secret). */
  storeDescription: string;
  /** Time from the start of opening to a usable core with the window's session, in ms. */
  openMs: number;
}

/**
 * Owns the window's core: opened lazily after activation, reopened when storage, embedding,
 * identity or scope settings change or when the memory process died (a new one is started),
 * released on deactivate. Everything else asks `ready()`.
 */
export class MemoryHost implements vscode.Disposable {
  private readonly context: vscode.ExtensionContext;
  private readonly log: Log;
  private current: Promise<ReadyMemory> | null = null;
  private settled: ReadyMemory | undefined;
  private readonly changed = new vscode.EventEmitter<ReadyMemory | undefined>();
  /** Refreshes the "session before reload" mark, so a reload at any time finds a recent one. */
  private readonly sessionMark = setInterval(() => {
    const identity = this.settled?.identity;
    if (identity)
      rememberSessionForReload(this.context, identity).catch((error: unknown) =>
        this.log.warn(`Cannot keep the session for a reload: ${String(error)}`),
      );
  }, 30_000);
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
    await ready.core.initSession(sessionInput(ready.identity));
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
    await releaseRuntime(ready.runtime);
  }

  dispose(): void {
    // A reload disposes the window and starts it again: the same working-memory session continues.
    clearInterval(this.sessionMark);
    const identity = this.settled?.identity;
    if (identity)
      rememberSessionForReload(this.context, identity).catch((error: unknown) =>
        this.log.warn(`Cannot keep the session for a reload: ${String(error)}`),
      );
    void this.close();
    this.changed.dispose();
  }

  /** The memory process went away (killed, crashed): forget the core and open again, which starts a new process. */
  private lost(attempt: Promise<ReadyMemory>, reason: string): void {
    if (this.current !== attempt) return;
    this.log.warn(`The memory process connection ended (${reason}); starting it again.`);
    this.current = null;
    this.settled = undefined;
    this.changed.fire(undefined);
    this.ready().catch((error: unknown) => this.log.error('Cannot restart the memory process', error));
  }

  private open(): Promise<ReadyMemory> {
    const started = performance.now();
    const attempt = (async () => {
      const dataDir = this.context.globalStorageUri.fsPath;
      await mkdir(dataDir, { recursive: true });
      const identity = await resolveIdentity(this.context, dataDir);
      const config = await runtimeConfigFromSettings(this.context.secrets, dataDir, identity);
      // The Ollama startup check says what it found: server reachable, model present, vector size.
      const check = config.embeddingCheck;
      if (check) (check.model === null ? this.log.warn : this.log.info).call(this.log, `Embeddings: ${check.message}`);
      const runtime = await openCoreRuntime(this.context, config, identity.userId, this.log);
      const core = runtime.core;
      await core.initSession(sessionInput(identity));
      if (runtime.kind === 'daemon') runtime.connection.onClose((error) => this.lost(attempt, error.message));
      await rememberSessionForReload(this.context, identity);
      const ready: ReadyMemory = {
        core,
        runtime,
        identity,
        dataDir,
        storeDescription: describeBackend(config.backend),
        openMs: Math.round(performance.now() - started),
      };
      this.log.info(
        `Memory store open in ${ready.openMs} ms (${runtime.kind === 'daemon' ? `memory process ${runtime.pid}` : 'in this window'}): ${core.backendKind} in ${dataDir}; user ${identity.userId}; project ${identity.scopeProjectId ?? '(all projects)'}; session ${identity.sessionId}`,
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
    config: {
      max_tokens: setting('workingMemory.maxTokens'),
      eviction_policy: setting('workingMemory.evictionPolicy'),
    },
  };
}
