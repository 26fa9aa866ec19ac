import * as vscode from 'vscode';
import type { Log } from '../log.ts';
import { describeMigration, migrateLegacySettings, type SettingsScope } from './settingsMigration.ts';

/**
 * The editor's settings files as migration scopes: the user's, the workspace's and, in a
 * multi-root workspace, each folder's (in a single-folder window the folder's file is the
 * workspace's, so it is not listed twice).
 */
export function editorSettingsScopes(): SettingsScope[] {
  const root = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration();
  const scopes: SettingsScope[] = [
    {
      level: 'user',
      label: 'user settings',
      valueOf: (id) => root().inspect(id)?.globalValue,
      write: async (id, value) => root().update(id, value, vscode.ConfigurationTarget.Global),
    },
  ];
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length > 0) {
    scopes.push({
      level: 'workspace',
      label: 'workspace settings',
      valueOf: (id) => root().inspect(id)?.workspaceValue,
      write: async (id, value) => root().update(id, value, vscode.ConfigurationTarget.Workspace),
    });
  }
  if (vscode.workspace.workspaceFile !== undefined) {
    for (const folder of folders) {
      const scoped = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(undefined, folder.uri);
      scopes.push({
        level: 'workspaceFolder',
        label: `folder ${folder.name}`,
        valueOf: (id) => scoped().inspect(id)?.workspaceFolderValue,
        write: async (id, value) => scoped().update(id, value, vscode.ConfigurationTarget.WorkspaceFolder),
      });
    }
  }
  return scopes;
}

/** Moves `memory.*` values to `fireboltMemory.*` and logs each one; a failure leaves the old value and is shown. */
export async function migrateEditorSettings(log: Log): Promise<void> {
  const { migrated, failures } = await migrateLegacySettings(editorSettingsScopes());
  for (const entry of migrated) log.info(describeMigration(entry));
  for (const failure of failures) log.error('Cannot migrate a setting to the fireboltMemory prefix', failure);
}
