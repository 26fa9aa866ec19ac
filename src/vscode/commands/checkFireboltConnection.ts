import * as vscode from 'vscode';
import { fireboltConfigOf } from '../../runtime/createRuntime.ts';
import { checkFireboltConnection, formatConnectionReport } from '../../stores/firebolt/connectionCheck.ts';
import type { ConnectionReport } from '../../stores/firebolt/connectionCheck.ts';
import { backendFor, storageChoiceFromSettings } from '../storage/storageConfig.ts';
import type { CommandDeps } from './commandDeps.ts';

/**
 * "Memory: Check Firebolt Connection": the same check as `fml firebolt check`
 * (stores/firebolt/connectionCheck.ts) on the configured Firebolt backend, written to the log
 * and summarised in a notification whose failures say what to fix.
 */
export async function checkFireboltConnectionCommand(deps: CommandDeps): Promise<ConnectionReport | undefined> {
  const choice = await storageChoiceFromSettings(deps.context.secrets);
  if (choice.kind === 'embedded') {
    const action = await vscode.window.showInformationMessage(
      'The embedded store is in use; configure Firebolt Core or Cloud to check a connection.',
      'Configure Storage',
    );
    if (action) await vscode.commands.executeCommand('memory.configureStorage');
    return undefined;
  }
  const { dataDir } = await deps.host.ready();
  const backend = backendFor(choice, dataDir);
  if (backend.kind === 'sqlite') return undefined;
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Checking the Firebolt connection' },
    () => checkFireboltConnection(fireboltConfigOf(backend)),
  );
  for (const line of formatConnectionReport(report)) deps.log.info(line);
  const failed = report.steps.find((step) => !step.ok && step.step !== 'hnsw' && step.step !== 'vector_search');
  const vectors = report.vectorSearchUsable
    ? 'HNSW vector search usable'
    : 'vector search not usable (exact search will be used)';
  const message = report.ok
    ? `Firebolt OK: ${report.target}, version ${report.serverVersion ?? 'unknown'}, ${vectors}.`
    : `Firebolt check failed at "${failed?.step ?? 'connect'}": ${failed?.advice ?? failed?.detail ?? 'see the log'}`;
  const action = report.ok
    ? await vscode.window.showInformationMessage(message, 'Show Details')
    : await vscode.window.showErrorMessage(message, 'Show Details');
  if (action) deps.log.channel.show();
  return report;
}
