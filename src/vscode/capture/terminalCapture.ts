import * as vscode from 'vscode';
import { describeFailedCommands, type FailedCommand } from '../../core/editor/contextItems.ts';
import type { CaptureContext, CaptureSource } from './captureContext.ts';

/** Failed terminal commands and their exit codes, through shell integration. */
export class TerminalCapture implements CaptureSource {
  private readonly context: CaptureContext;
  private readonly failed: FailedCommand[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(context: CaptureContext) {
    this.context = context;
    this.subscription = vscode.window.onDidEndTerminalShellExecution((event) => {
      // Undefined means shell integration could not tell; only a known non-zero code is a failure.
      if (event.exitCode === undefined || event.exitCode === 0) return;
      const commandLine = event.execution.commandLine.value.trim();
      if (commandLine === '') return;
      const cwd = event.execution.cwd ? this.context.capturablePath(event.execution.cwd) : null;
      this.failed.push({ commandLine, exitCode: event.exitCode, ...(cwd ? { cwd } : {}) });
      if (this.failed.length > 20) this.failed.shift();
      this.refresh();
    });
  }

  refresh(): void {
    if (!this.context.enabled('capture.terminal')) return this.context.sink.submit('terminal', null);
    this.context.sink.submit('terminal', describeFailedCommands(this.failed));
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
