import type * as vscode from 'vscode';
import type { CaptureController } from '../capture/captureController.ts';
import type { Log } from '../log.ts';
import type { MemoryEndpoint } from '../mcp/memoryEndpoint.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';
import type { ActivationTimes } from '../activationTimes.ts';
import type { MemoryDocuments } from './memoryDocuments.ts';
import type { AnchoredMemories } from '../anchors/anchoredMemories.ts';
import type { RepoMemoryController } from '../repoMemories/repoMemoryController.ts';

/** What command bodies may use; built once in activate(). */
export interface CommandDeps {
  context: vscode.ExtensionContext;
  host: MemoryHost;
  log: Log;
  capture: CaptureController;
  endpoint: MemoryEndpoint;
  activation: ActivationTimes;
  /** The Memory panel: Show Memory Panel asks it for focus on its list. */
  panel: { focusList(): void };
  /** Read-only memory documents; made by registerCommands. */
  documents: MemoryDocuments;
  /** The workspace's anchored memories, kept checked; null without a folder on disk. */
  anchors: AnchoredMemories | null;
  /** Project memories shared in the repository's .memory/ folder (issue #34). */
  repoMemories: RepoMemoryController;
}
