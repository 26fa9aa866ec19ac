import * as vscode from 'vscode';
import { setting, updateUserSetting } from '../config/vscodeSettings.ts';
import { SECRET_KEYS } from '../storage/secretKeys.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm } from './feedback.ts';

/** Stores the key in SecretStorage only, turns the provider on if it was off, and reopens the store. */
export async function setEmbeddingApiKeyCommand(deps: CommandDeps): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: 'Set Embedding API Key',
    prompt:
      "API key of your OpenAI-compatible embeddings endpoint (kept in the editor's secret storage). Leave empty to remove it.",
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return false;
  if (key.trim() === '') {
    await deps.context.secrets.delete(SECRET_KEYS.embeddingApiKey);
    confirm(deps.log, 'Embedding API key removed.');
  } else {
    await deps.context.secrets.store(SECRET_KEYS.embeddingApiKey, key.trim());
    if (setting('embeddings.provider') === 'none') await updateUserSetting('embeddings.provider', 'openai');
    confirm(deps.log, 'Embedding API key saved; semantic recall is on.');
  }
  // watchSettings reopens the store on the secret (and provider setting) change.
  deps.log.resetShown();
  return true;
}
