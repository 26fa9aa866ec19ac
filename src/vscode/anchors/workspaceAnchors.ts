import * as vscode from 'vscode';
import { AnchorChecker } from '../../core/anchors/anchorChecker.ts';
import { nodeWorkspaceFiles } from '../../runtime/nodeWorkspaceFiles.ts';
import type { Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';
import { AnchoredMemories } from './anchoredMemories.ts';

/**
 * The window's anchored memories over its first folder on disk; null in a window without one, or
 * in Restricted Mode, where nothing is read from the workspace.
 */
export function workspaceAnchors(host: MemoryHost, log: Log): AnchoredMemories | null {
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
  if (!folder || !vscode.workspace.isTrusted) return null;
  return new AnchoredMemories(host, log, new AnchorChecker(nodeWorkspaceFiles(folder.uri.fsPath)));
}
