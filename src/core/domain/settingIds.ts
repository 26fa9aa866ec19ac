/**
 * The prefix of every editor setting of the extension (`fireboltMemory.storage.backend`, …).
 * Shared by the setting declarations, every reader in the extension and the messages of the
 * vscode-free core that point users to a setting, so the name is spelled in one place only.
 */
export const SETTINGS_SECTION = 'fireboltMemory';

/** The generic prefix the settings used to have; values still stored under it are migrated once at activation. */
export const LEGACY_SETTINGS_SECTION = 'memory';

/** The full id of a setting or a group of settings, e.g. `settingId('layers.teamId')`. */
export function settingId(key: string): string {
  return `${SETTINGS_SECTION}.${key}`;
}
