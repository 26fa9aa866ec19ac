import * as vscode from 'vscode';
import { describeFailedTask, type FailedTask } from '../../core/editor/contextItems.ts';
import type { CaptureContext, CaptureSource } from './captureContext.ts';

/** The last failed task or test run; cleared when that task later succeeds. */
export class TaskCapture implements CaptureSource {
  private readonly context: CaptureContext;
  private last: FailedTask | null = null;
  private readonly subscription: vscode.Disposable;

  constructor(context: CaptureContext) {
    this.context = context;
    this.subscription = vscode.tasks.onDidEndTaskProcess((event) => {
      if (event.exitCode === undefined) return;
      const task = event.execution.task;
      if (event.exitCode !== 0)
        this.last = { name: task.name, exitCode: event.exitCode, ...(task.source ? { source: task.source } : {}) };
      else if (this.last?.name === task.name) this.last = null;
      this.refresh();
    });
  }

  refresh(): void {
    if (!this.context.enabled('capture.tasks')) return this.context.sink.submit('task', null);
    this.context.sink.submit('task', describeFailedTask(this.last));
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
