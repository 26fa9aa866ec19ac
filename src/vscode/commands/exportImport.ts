import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { MemoryError } from '../../core/domain/errors.ts';
import { writeExportFile } from '../storage/exportFile.ts';
import { parseExport } from '../storage/exportFormat.ts';
import { PANEL_FOCUS_COMMAND } from '../panelIds.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm, offer } from './feedback.ts';

export async function exportCommand(
  deps: CommandDeps,
  targetPath?: string,
): Promise<{ path: string; count: number } | undefined> {
  const { core, identity } = await deps.host.ready();
  const path =
    targetPath ??
    (
      await vscode.window.showSaveDialog({
        title: 'Export Memories',
        saveLabel: 'Export',
        filters: { JSON: ['json'] },
        defaultUri: vscode.Uri.file(`memories-${new Date().toISOString().slice(0, 10)}.json`),
      })
    )?.fsPath;
  if (!path) return undefined;
  const { count, cancelled } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Exporting memories', cancellable: true },
    (progress, token) => {
      let reported = 0;
      return writeExportFile(
        core,
        identity.userId,
        path,
        ({ written, total }) => {
          const percent = total === 0 ? 100 : (100 * written) / total;
          progress.report({ message: `${written} of ${total}`, increment: percent - reported });
          reported = percent;
        },
        () => token.isCancellationRequested,
      );
    },
  );
  if (cancelled) {
    deps.log.info(`Export to ${path} cancelled after ${count} memories; the file is incomplete.`);
    void vscode.window.showWarningMessage(`Export cancelled after ${count} memories; ${path} is incomplete.`);
    return { path, count };
  }
  offer(deps.log, `Exported ${count} memories to ${path}.`, {
    label: 'Open File',
    run: () => vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true }),
  });
  return { path, count };
}

export async function importCommand(
  deps: CommandDeps,
  sourcePath?: string,
): Promise<{ created: number; updated: number; skipped: number } | undefined> {
  const path =
    sourcePath ??
    (
      await vscode.window.showOpenDialog({
        title: 'Import Memories',
        openLabel: 'Import',
        canSelectMany: false,
        filters: { JSON: ['json'] },
      })
    )?.[0]?.fsPath;
  if (!path) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new MemoryError('INVALID_INPUT', `${path} is not a JSON file.`, { cause });
  }
  const memories = parseExport(parsed);
  const { core, identity } = await deps.host.ready();
  const counts = { created: 0, updated: 0, skipped: 0 };
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Importing memories', cancellable: true },
    async (progress, token) => {
      for (const [index, memory] of memories.entries()) {
        if (token.isCancellationRequested) break;
        // Stored through the core, so classification checks and duplicate detection apply: importing a file twice adds nothing.
        const result = await core.storeMemory({ ...memory, user_id: identity.userId });
        const action = result.similar_existing?.action;
        if (action === 'skipped_duplicate') counts.skipped++;
        else if (action === 'updated_existing') counts.updated++;
        else counts.created++;
        progress.report({ message: `${index + 1} of ${memories.length}`, increment: 100 / memories.length });
      }
    },
  );
  deps.log.info(`Imported from ${path}: ${JSON.stringify(counts)}`);
  const message = `Imported memories: ${counts.created} new, ${counts.updated} updated, ${counts.skipped} already present.`;
  if (counts.created + counts.updated === 0) confirm(deps.log, message);
  else
    offer(deps.log, message, {
      label: 'Show in Panel',
      run: () => vscode.commands.executeCommand(PANEL_FOCUS_COMMAND),
    });
  return counts;
}
