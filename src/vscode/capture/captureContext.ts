import * as vscode from 'vscode';
import type { CaptureSink } from '../../core/editor/captureSink.ts';
import { PathFilter } from '../../core/editor/pathPrivacy.ts';
import { filesExcludeGlobs, setting } from '../config/vscodeSettings.ts';
import type { Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';

export type CaptureSetting =
  | 'capture.activeEditor'
  | 'capture.openEditors'
  | 'capture.diagnostics'
  | 'capture.terminal'
  | 'capture.git'
  | 'capture.tasks'
  | 'capture.resolvedErrors';

/** What every capture source shares: the sink, the privacy filter and the on/off settings. */
export class CaptureContext {
  readonly sink: CaptureSink;
  readonly host: MemoryHost;
  readonly log: Log;
  private filter: PathFilter | null = null;

  constructor(sink: CaptureSink, host: MemoryHost, log: Log) {
    this.sink = sink;
    this.host = host;
    this.log = log;
  }

  /** Capture needs a trusted workspace: in Restricted Mode nothing from the workspace is recorded. */
  enabled(key: CaptureSetting): boolean {
    return vscode.workspace.isTrusted && setting(key);
  }

  /** Workspace-relative path of a file that may be captured, or null when privacy rules refuse it. */
  capturablePath(uri: vscode.Uri): string | null {
    if (uri.scheme !== 'file') return null;
    const relative = vscode.workspace.asRelativePath(uri, false);
    this.filter ??= new PathFilter([...filesExcludeGlobs(), ...setting('capture.exclude')]);
    return this.filter.allows(relative, uri.fsPath) ? relative : null;
  }

  /** Settings changed: rebuild the filter on next use. */
  invalidate(): void {
    this.filter = null;
  }
}

/** A capture source: `refresh` recomputes its item(s) from the editor's current state. */
export interface CaptureSource extends vscode.Disposable {
  refresh(): void;
}
