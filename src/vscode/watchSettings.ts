import * as vscode from 'vscode';
import { setting } from './config/vscodeSettings.ts';
import type { Log } from './log.ts';
import type { MemoryHost } from './runtime/memoryHost.ts';
import { SECRET_KEYS } from './storage/secretKeys.ts';
import { settingId } from '../core/domain/settingIds.ts';

/** Settings whose change needs a reopened store (new backend, embeddings or identity). */
const REOPEN_SECTIONS = ['storage', 'firebolt', 'embeddings', 'user', 'scope', 'layers', 'extraction'].map(settingId);

/** Settings writes from one command land up to about a second apart (code-server); one reopen for them. */
const REOPEN_DELAY_MS = 1_000;

/** Applies setting and secret changes while the window is open, without a reload. */
export function watchSettings(context: vscode.ExtensionContext, host: MemoryHost, log: Log): vscode.Disposable {
  // A command often changes several settings and a secret at once: one reopen for the burst.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reopen = (reason: string): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      log.resetShown();
      host.reload(reason).catch((error: unknown) => log.error('Cannot reopen the memory store', error));
    }, REOPEN_DELAY_MS);
  };
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((event) => {
      const section = REOPEN_SECTIONS.find((name) => event.affectsConfiguration(name));
      // Firebolt connection details matter only while a Firebolt backend is selected.
      if (section === settingId('firebolt') && setting('storage.backend') === 'embedded') return;
      if (section) return reopen(`${section} settings changed`);
      if (event.affectsConfiguration(settingId('workingMemory'))) {
        host.applySessionSettings().then(
          () => log.info('Working-memory budget and policy applied to the session.'),
          (error: unknown) => log.error('Cannot apply the working-memory settings', error),
        );
      }
    }),
    // Enrichment waits for a trusted workspace; granting trust starts it without a reload.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (setting('extraction.useLanguageModel')) reopen('the workspace is now trusted');
    }),
    context.secrets.onDidChange((event) => {
      const relevant =
        event.key === SECRET_KEYS.embeddingApiKey ||
        (event.key === SECRET_KEYS.fireboltClientSecret && setting('storage.backend') === 'firebolt-cloud');
      if (relevant) reopen('a secret changed');
    }),
    new vscode.Disposable(() => clearTimeout(timer)),
  );
}
