import * as vscode from 'vscode';
import { ANCHORS_FIELD } from '../../core/anchors/anchorModel.ts';
import { linesAnchor } from '../anchors/editorAnchors.ts';
import { type DiagnosticEntry, describeDiagnostics } from '../../core/editor/contextItems.ts';
import {
  describeResolvedError,
  fixedLines,
  type ObservedError,
  type ResolvedError,
  ResolvedErrorTracker,
} from '../../core/editor/resolvedErrorTracker.ts';
import { containsSecret } from '../../core/api/textApi.ts';
import type { CaptureContext, CaptureSource } from './captureContext.ts';

/**
 * Errors and warnings as a working-memory item, and errors that the developer's edits made
 * disappear as long-term outcome memories.
 */
export class DiagnosticsCapture implements CaptureSource {
  private readonly context: CaptureContext;
  private readonly tracker = new ResolvedErrorTracker();
  private readonly subscriptions: vscode.Disposable[];
  /** Outcomes stored this window, so a flapping error is remembered once. */
  private readonly remembered = new Set<string>();
  /**
   * Each open document's text before its latest change: when the change arrives and the file has no
   * errors, that text was error-free, and is what a later error's "fix" is compared with.
   */
  private readonly previousTexts = new Map<string, string>();

  constructor(context: CaptureContext) {
    this.context = context;
    this.subscriptions = [
      vscode.languages.onDidChangeDiagnostics((event) => {
        this.refreshSummary();
        this.trackResolved(event.uris);
      }),
      vscode.workspace.onDidChangeTextDocument((event) => this.recordEdits(event)),
      vscode.workspace.onDidOpenTextDocument((document) => this.rememberText(document)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.previousTexts.delete(document.uri.toString());
        const path = this.context.capturablePath(document.uri);
        if (path !== null) this.tracker.forget(path);
      }),
      vscode.workspace.onDidRenameFiles((event) => {
        for (const { oldUri, newUri } of event.files) {
          const from = this.context.capturablePath(oldUri);
          const to = this.context.capturablePath(newUri);
          if (from !== null && to !== null) this.tracker.rename(from, to);
        }
      }),
    ];
    for (const document of vscode.workspace.textDocuments) this.rememberText(document);
  }

  private rememberText(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file' || document.getText().length > MAX_TEXT_KEPT) return;
    this.previousTexts.set(document.uri.toString(), document.getText());
  }

  refresh(): void {
    this.refreshSummary();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private refreshSummary(): void {
    if (!this.context.enabled('capture.diagnostics')) return this.context.sink.submit('diagnostics', null);
    const entries: DiagnosticEntry[] = [];
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
      const path = this.context.capturablePath(uri);
      if (path === null) continue;
      for (const diagnostic of diagnostics) {
        if (
          diagnostic.severity !== vscode.DiagnosticSeverity.Error &&
          diagnostic.severity !== vscode.DiagnosticSeverity.Warning
        )
          continue;
        entries.push({
          path,
          line: diagnostic.range.start.line + 1,
          severity: diagnostic.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning',
          message: diagnostic.message,
          ...(diagnostic.source ? { source: diagnostic.source } : {}),
          ...(codeOf(diagnostic) ? { code: codeOf(diagnostic) } : {}),
        });
      }
    }
    this.context.sink.submit('diagnostics', describeDiagnostics(entries));
  }

  private recordEdits(event: vscode.TextDocumentChangeEvent): void {
    if (!this.context.enabled('capture.resolvedErrors') || event.contentChanges.length === 0) return;
    const path = this.context.capturablePath(event.document.uri);
    if (path === null) return;
    const key = event.document.uri.toString();
    const before = this.previousTexts.get(key);
    const hasErrors = vscode.languages
      .getDiagnostics(event.document.uri)
      .some((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error);
    if (before !== undefined && !hasErrors) this.tracker.noteCleanText(path, before);
    this.rememberText(event.document);
    const now = Date.now();
    for (const change of event.contentChanges) {
      this.tracker.recordEdit(
        {
          file: path,
          line: change.range.start.line + 1,
          inserted: change.text.slice(0, 500),
          removed: change.rangeLength,
        },
        now,
      );
    }
  }

  private trackResolved(uris: readonly vscode.Uri[]): void {
    if (!this.context.enabled('capture.resolvedErrors')) return;
    const now = Date.now();
    for (const uri of uris) {
      const path = this.context.capturablePath(uri);
      if (path === null) continue;
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
      const errors: ObservedError[] = vscode.languages
        .getDiagnostics(uri)
        .filter((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error)
        .map((diagnostic) => ({
          file: path,
          line: diagnostic.range.start.line + 1,
          message: diagnostic.message,
          ...(diagnostic.source ? { source: diagnostic.source } : {}),
          ...(codeOf(diagnostic) ? { code: codeOf(diagnostic) } : {}),
          ...(document ? { language: document.languageId } : {}),
        }));
      const text = document && document.getText().length <= MAX_TEXT_KEPT ? document.getText() : undefined;
      for (const resolved of this.tracker.observe(path, errors, now, text)) void this.remember(resolved);
    }
  }

  private async remember(resolved: ResolvedError): Promise<void> {
    const content = describeResolvedError(resolved);
    const key = `${resolved.error.file}\u0000${resolved.error.message}`;
    if (this.remembered.has(key) || containsSecret(content)) return;
    this.remembered.add(key);
    try {
      const { core, identity } = await this.context.host.ready();
      const stored = await core.storeMemory({
        user_id: identity.userId,
        content,
        memory_category: 'episodic',
        memory_subtype: 'outcome',
        importance: 0.6,
        source_type: 'editor',
        session_id: identity.sessionId,
        ...(identity.scopeProjectId ? { project_id: identity.scopeProjectId } : {}),
        entities: [
          resolved.error.file,
          ...(resolved.error.code ? [`${resolved.error.source ?? 'error'} ${resolved.error.code}`] : []),
        ],
        metadata: {
          source: 'editor',
          tags: ['resolved-error'],
          file: resolved.error.file,
          error: resolved.error.message,
          ...fixAnchors(resolved),
        },
      });
      this.context.log.info(
        `Remembered how an error was resolved (${stored.memory_id}): ${resolved.error.file}:${resolved.error.line}`,
      );
    } catch (error) {
      this.remembered.delete(key);
      this.context.log.error('Cannot remember a resolved error', error);
    }
  }
}

/** The fixed lines as they are now, as the outcome's anchor: if they change again, the outcome may no longer hold. */
function fixAnchors(resolved: ResolvedError): Record<string, unknown> {
  const lines = fixedLines(resolved);
  if (!lines) return {};
  const document = vscode.workspace.textDocuments.find(
    (candidate) =>
      candidate.uri.scheme === 'file' && vscode.workspace.asRelativePath(candidate.uri, false) === resolved.error.file,
  );
  const anchor = document ? linesAnchor(document, resolved.error.file, lines.from, lines.to) : null;
  return anchor ? { [ANCHORS_FIELD]: [anchor] } : {};
}

function codeOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) return undefined;
  return String(typeof code === 'object' ? code.value : code);
}

/** Files larger than this are not compared for resolved errors (a fix is a few lines; a generated file is not the place). */
const MAX_TEXT_KEPT = 1_000_000;
