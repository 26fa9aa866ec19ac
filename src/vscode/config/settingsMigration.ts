/**
 * Moves values stored under the old generic `memory.*` prefix to the extension's own
 * `fireboltMemory.*` prefix. Runs at every activation and finds nothing once a settings file has
 * been migrated, so each file is migrated once; workspaces opened later are migrated when opened.
 * Pure: the editor's configuration comes in as `SettingsScope`s, so it is testable with fakes.
 */
import { MemoryError } from '../../core/domain/errors.ts';
import { LEGACY_SETTINGS_SECTION, settingId } from '../../core/domain/settingIds.ts';
import { SETTING_KEYS, SETTINGS } from './settings.ts';

/** One settings file: the user's, the workspace's, or one folder's of a multi-root workspace. */
export interface SettingsScope {
  level: 'user' | 'workspace' | 'workspaceFolder';
  /** How the log names this scope: "user settings", "workspace settings", "folder api". */
  label: string;
  /** The value stored in exactly this file, undefined when the file does not set it. */
  valueOf(id: string): unknown;
  /** Writes `value` into this file; undefined removes the entry. */
  write(id: string, value: unknown): Promise<void>;
}

export interface MigratedSetting {
  scope: string;
  from: string;
  to: string;
  /**
   * `copied`: the old value now lives under the new id; `superseded`: the new id was already set,
   * the old entry was dropped; `user-only`: an application setting found in a workspace or folder
   * file, where VS Code never read it, so it was dropped (the editor refuses to write it there).
   */
  outcome: 'copied' | 'superseded' | 'user-only';
}

export interface SettingsMigrationResult {
  migrated: MigratedSetting[];
  /** Settings that could not be moved; their old entry is left in place, so nothing is lost. */
  failures: MemoryError[];
}

export function legacySettingId(key: string): string {
  return `${LEGACY_SETTINGS_SECTION}.${key}`;
}

export async function migrateLegacySettings(scopes: readonly SettingsScope[]): Promise<SettingsMigrationResult> {
  const result: SettingsMigrationResult = { migrated: [], failures: [] };
  for (const scope of scopes) {
    for (const key of SETTING_KEYS) {
      const from = legacySettingId(key);
      const to = settingId(key);
      const old = scope.valueOf(from);
      if (old === undefined) continue;
      const userOnly = scope.level !== 'user' && (SETTINGS[key] as { scope?: string }).scope === 'application';
      const outcome: MigratedSetting['outcome'] = userOnly
        ? 'user-only'
        : scope.valueOf(to) !== undefined
          ? 'superseded'
          : 'copied';
      try {
        // Copy first, remove after: a failure between the two leaves both, never neither.
        if (outcome === 'copied') await scope.write(to, old);
        await scope.write(from, undefined);
        result.migrated.push({ scope: scope.label, from, to, outcome });
      } catch (error) {
        result.failures.push(
          new MemoryError(
            'CONFIGURATION_ERROR',
            `Cannot move ${from} to ${to} in ${scope.label}: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error, operation: 'migrate_settings', details: { from, to, scope: scope.label } },
          ),
        );
      }
    }
  }
  return result;
}

/** One log line per moved setting, in the user's terms. */
export function describeMigration(entry: MigratedSetting): string {
  switch (entry.outcome) {
    case 'copied':
      return `Setting ${entry.from} moved to ${entry.to} (${entry.scope}).`;
    case 'superseded':
      return `Setting ${entry.from} removed from ${entry.scope}: ${entry.to} is already set there and is kept.`;
    case 'user-only':
      return `Setting ${entry.from} removed from ${entry.scope}, where it had no effect: set ${entry.to} in your user settings.`;
  }
}
