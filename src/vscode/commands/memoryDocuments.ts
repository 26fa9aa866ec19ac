import * as vscode from 'vscode';
import type { MemoryRecord } from '../../core/domain/records.ts';
import { isSharedLayer, sharedPartition } from '../../core/api/layerPartitions.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';
import {
  MEMORY_DOCUMENT_SCHEME,
  memoryDocumentLocation,
  memoryDocumentText,
  parseMemoryDocumentQuery,
} from './memoryDocumentText.ts';

/**
 * Memories open as read-only virtual documents (as GitLens shows revisions): no Untitled buffer
 * that turns dirty, survives a reload and asks to be saved. The text is read from the store when
 * the document opens, so it is the memory as it is now.
 */
export class MemoryDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** Why a search matched each opened memory, shown in its document; bounded by what the user opened. */
  private readonly whyMatched = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private readonly host: MemoryHost;

  constructor(host: MemoryHost) {
    this.host = host;
    this.registration = vscode.workspace.registerTextDocumentContentProvider(MEMORY_DOCUMENT_SCHEME, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseMemoryDocumentQuery(uri.query);
    if (!ref) return `Not a memory document: ${uri.toString()}`;
    const { core, identity } = await this.host.ready();
    // Shared layers live in their own partition; personal ones in this user's, so a URI cannot name another user's memory.
    const partition = isSharedLayer(ref.layer) ? sharedPartition(ref.layer, ref.scopeId) : identity.userId;
    const [memory] = await core.getMemories(partition, [ref.memoryId]);
    if (!memory || memory.deleted_at) return `Memory ${ref.memoryId} no longer exists: it was forgotten.`;
    return memoryDocumentText(memory, this.whyMatched.get(ref.memoryId));
  }

  /** Opens a memory read-only in a preview tab (Markdown, from the URI's .md path), in the active group unless told. */
  async open(
    memory: Pick<MemoryRecord, 'memory_id' | 'layer' | 'scope_id' | 'content'>,
    whyMatched?: string,
    column?: vscode.ViewColumn,
  ): Promise<void> {
    if (whyMatched) this.whyMatched.set(memory.memory_id, whyMatched);
    const uri = vscode.Uri.from({ scheme: MEMORY_DOCUMENT_SCHEME, ...memoryDocumentLocation(memory) });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), {
      preview: true,
      ...(column !== undefined ? { viewColumn: column } : {}),
    });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
