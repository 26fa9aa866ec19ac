import * as vscode from 'vscode';
import { CaptureSink } from '../../core/editor/captureSink.ts';
import type { Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';
import { CaptureContext, type CaptureSource } from './captureContext.ts';
import { DiagnosticsCapture } from './diagnosticsCapture.ts';
import { EditorCapture } from './editorCapture.ts';
import { GitCapture } from './gitCapture.ts';
import { TaskCapture } from './taskCapture.ts';
import { TerminalCapture } from './terminalCapture.ts';
import { editorItemId, WorkingMemoryWriter } from './workingMemoryWriter.ts';
import { settingId } from '../../core/domain/settingIds.ts';

/** Editor bursts (typing, selection drags) settle within this; one write per burst. */
const DEBOUNCE_MS = 750;
const CHECK_DELAY_MS = 1_000;

/**
 * Starts every capture source, re-evaluates them when settings or workspace trust change, and
 * re-sends everything after the session was cleared or the store reopened.
 */
export class CaptureController implements vscode.Disposable {
  readonly sink: CaptureSink;
  private readonly context: CaptureContext;
  private readonly sources: CaptureSource[];
  private readonly subscriptions: vscode.Disposable[];
  private readonly host: MemoryHost;
  private readonly log: Log;
  private coreEvents: { dispose(): void } | undefined;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: MemoryHost, log: Log) {
    this.host = host;
    this.log = log;
    this.sink = new CaptureSink({
      writer: new WorkingMemoryWriter(host),
      delayMs: DEBOUNCE_MS,
      onSkip: (slot, reason) => log.info(`Capture of "${slot}" skipped: ${reason}.`),
      onError: (slot, error) => log.error(`Cannot capture editor context (${slot})`, error),
    });
    this.context = new CaptureContext(this.sink, host, log);
    this.sources = [
      new EditorCapture(this.context),
      new DiagnosticsCapture(this.context),
      new TerminalCapture(this.context),
      new TaskCapture(this.context),
      new GitCapture(this.context),
    ];
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(settingId('capture')) || event.affectsConfiguration('files.exclude')) {
          this.context.invalidate();
          this.refreshAll();
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refreshAll()),
      host.onDidChange((ready) => {
        this.coreEvents?.dispose();
        this.coreEvents = ready?.core.onEvent((event) => {
          if (event.type === 'working' && event.session_id === ready.identity.sessionId) this.scheduleCheck();
        });
        if (ready) this.resend();
      }),
    ];
  }

  /**
   * Items can leave working memory without this window's doing (budget eviction, a checkpoint, an
   * agent's clear_working_memory): after working-memory changes, re-send the slots whose item is gone.
   */
  private scheduleCheck(): void {
    if (this.checkTimer) clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => void this.checkItems(), CHECK_DELAY_MS);
  }

  private async checkItems(): Promise<void> {
    const ready = this.host.peek();
    if (!ready) return;
    try {
      const state = await ready.core.workingState(ready.identity.sessionId, ready.identity.userId);
      const present = new Set(state.items.map((item) => item.item_id));
      const missing = this.sink
        .writtenSlots()
        .filter((slot) => !present.has(editorItemId(ready.identity.sessionId, slot)));
      if (missing.length === 0) return;
      for (const slot of missing) this.sink.forget(slot);
      this.refreshAll();
    } catch (error) {
      this.log.error('Cannot check the editor context items', error);
    }
  }

  refreshAll(): void {
    for (const source of this.sources) source.refresh();
  }

  /** After a clear or a reopened store the items are gone: write them all again. */
  resend(): void {
    this.sink.reset();
    this.refreshAll();
  }

  dispose(): void {
    if (this.checkTimer) clearTimeout(this.checkTimer);
    this.coreEvents?.dispose();
    this.sink.dispose();
    for (const source of this.sources) source.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
