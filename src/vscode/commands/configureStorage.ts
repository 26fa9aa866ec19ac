import * as vscode from 'vscode';
import { createStore } from '../../runtime/createRuntime.ts';
import { updateUserSetting } from '../config/vscodeSettings.ts';
import { backendFor, type StorageChoice, type StorageKind } from '../storage/storageConfig.ts';
import { SECRET_KEYS } from '../storage/secretKeys.ts';
import { setting } from '../config/vscodeSettings.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm } from './feedback.ts';

/** Asks for a backend and its connection details, checks the connection, then saves and reopens. */
export async function configureStorageCommand(deps: CommandDeps): Promise<StorageKind | undefined> {
  const current = setting('storage.backend');
  const options: Array<vscode.QuickPickItem & { backend: StorageKind }> = [
    { label: 'Embedded', description: "SQLite in the editor's global storage", backend: 'embedded' },
    { label: 'Firebolt Core', description: 'a self-hosted Firebolt Core server', backend: 'firebolt-core' },
    { label: 'Firebolt Cloud', description: 'Firebolt Cloud through a service account', backend: 'firebolt-cloud' },
  ];
  for (const option of options) if (option.backend === current) option.detail = 'current';
  const picked = await vscode.window.showQuickPick(options, {
    title: 'Configure Storage',
    placeHolder: 'Where should memories be stored?',
  });
  if (!picked) return undefined;
  const choice = await askDetails(picked.backend, deps);
  if (!choice) return undefined;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Checking the ${picked.label} connection…` },
    () => validate(choice, deps),
  );
  // Connection details first and the backend last: the store reopens once, on the backend change.
  if (choice.kind === 'firebolt-core') {
    await updateUserSetting('firebolt.core.url', choice.url);
    await updateUserSetting('firebolt.database', choice.database);
  } else if (choice.kind === 'firebolt-cloud') {
    await updateUserSetting('firebolt.cloud.account', choice.account);
    await updateUserSetting('firebolt.cloud.engine', choice.engine);
    await updateUserSetting('firebolt.database', choice.database);
    await updateUserSetting('firebolt.cloud.clientId', choice.clientId);
    await deps.context.secrets.store(SECRET_KEYS.fireboltClientSecret, choice.clientSecret);
  }
  await updateUserSetting('storage.backend', choice.kind);
  // watchSettings reopens the store when these settings or the secret change; identical values need no reopen.
  deps.log.resetShown();
  confirm(deps.log, `Memory storage: ${picked.label}.`);
  return choice.kind;
}

async function askDetails(kind: StorageKind, deps: CommandDeps): Promise<StorageChoice | undefined> {
  const ask = (prompt: string, value: string, password = false) =>
    vscode.window.showInputBox({ title: 'Configure Storage', prompt, value, password, ignoreFocusOut: true });
  switch (kind) {
    case 'embedded':
      return { kind };
    case 'firebolt-core': {
      const url = await ask('Firebolt Core URL', setting('firebolt.core.url'));
      if (!url) return undefined;
      const database = await ask('Database', setting('firebolt.database'));
      return database ? { kind, url, database } : undefined;
    }
    case 'firebolt-cloud': {
      const account = await ask('Account name', setting('firebolt.cloud.account'));
      if (!account) return undefined;
      const engine = await ask('Engine name', setting('firebolt.cloud.engine'));
      if (!engine) return undefined;
      const database = await ask('Database', setting('firebolt.database'));
      if (!database) return undefined;
      const clientId = await ask('Service account client id', setting('firebolt.cloud.clientId'));
      if (!clientId) return undefined;
      const clientSecret = await ask(
        "Service account client secret (kept in the editor's secret storage)",
        (await deps.context.secrets.get(SECRET_KEYS.fireboltClientSecret)) ?? '',
        true,
      );
      return clientSecret ? { kind, account, engine, database, clientId, clientSecret } : undefined;
    }
  }
}

/** Opens the store, checks health, closes it; throws (and nothing is saved) when unusable. */
async function validate(choice: StorageChoice, deps: CommandDeps): Promise<void> {
  const store = createStore(backendFor(choice, deps.context.globalStorageUri.fsPath));
  await store.open();
  try {
    const health = await store.health();
    deps.log.info(`Storage check ${choice.kind}: ${health.status} in ${health.latency_ms} ms (${health.detail}).`);
    if (health.status === 'unhealthy') throw new Error(`the ${choice.kind} store is unhealthy: ${health.detail}`);
  } finally {
    await store.close();
  }
}
