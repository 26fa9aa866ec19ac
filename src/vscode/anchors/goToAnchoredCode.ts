import * as vscode from 'vscode';
import { anchorsOf } from '../../core/anchors/anchorModel.ts';
import type { CoreSurface } from '../../core/coreSurface.ts';
import { MemoryError } from '../../core/domain/errors.ts';

/**
 * "Go to code" of an anchored memory: opens its first anchor's file in the window's folder at the
 * lines where the code is now (where the last check followed it), else where it was stored.
 */
export async function goToAnchoredCode(core: CoreSurface, userId: string, memoryId: string): Promise<void> {
  const memory = await core.getMemory(userId, memoryId);
  const [anchor] = anchorsOf(memory.metadata);
  if (!anchor)
    throw new MemoryError('INVALID_INPUT', `Memory ${memoryId} is not anchored to code.`, {
      details: { memory_id: memoryId },
    });
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file')
    throw new MemoryError('INVALID_INPUT', 'Go to code needs the memory’s folder open in this window.');
  const where = anchor.current ?? { path: anchor.path, lines: anchor.lines };
  const uri = vscode.Uri.joinPath(folder.uri, ...where.path.split('/'));
  try {
    await vscode.workspace.fs.stat(uri);
  } catch (error) {
    throw new MemoryError('INVALID_INPUT', `${where.path} is no longer in this folder; the memory’s code is gone.`, {
      details: { path: where.path },
      cause: error,
    });
  }
  const range = new vscode.Range(Math.max(0, where.lines.start - 1), 0, Math.max(0, where.lines.end - 1), 0);
  await vscode.window.showTextDocument(uri, { selection: range, preview: false });
}
