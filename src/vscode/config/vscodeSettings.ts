import * as vscode from 'vscode';
import { settingId } from '../../core/domain/settingIds.ts';
import { readSetting, type SettingKey, type SettingValue } from './settings.ts';

/**
 * Reads settings fresh on every call (never cached): VS Code already applies Restricted Mode,
 * ignoring workspace values of the settings declared in `restrictedConfigurations`.
 */
export function setting<K extends SettingKey>(key: K): SettingValue<K> {
  return readSetting(key, (name) => vscode.workspace.getConfiguration().get(name));
}

export async function updateUserSetting<K extends SettingKey>(key: K, value: SettingValue<K>): Promise<void> {
  await vscode.workspace.getConfiguration().update(settingId(key), value, vscode.ConfigurationTarget.Global);
}

/** Globs of the editor's own `files.exclude` whose value is true. */
export function filesExcludeGlobs(): string[] {
  const excluded = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {};
  return Object.entries(excluded)
    .filter(([, enabled]) => enabled === true)
    .map(([glob]) => glob);
}
