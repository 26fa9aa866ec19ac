import * as vscode from 'vscode';
import { createStore } from '../../runtime/createRuntime.ts';
import { type CopyProgress, type CopyResult, copyStore } from '../../stores/copy/copyStore.ts';
import type { BackendConfig } from '../../runtime/runtimeConfig.ts';
import { backendFor, storageChoiceFromSettings } from '../storage/storageConfig.ts';
import { PANEL_FOCUS_COMMAND } from '../panelIds.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm, offer } from './feedback.ts';

/**
 * Copies this user's memories, sessions and access log from the embedded store into the configured
 * Firebolt store with the runtime's copyStore (idempotent by id, so a cancelled copy resumes by
 * running it again), then reports the per-user count check.
 */
export async function copyToFireboltCommand(deps: CommandDeps): Promise<CopyResult | undefined> {
  const choice = await storageChoiceFromSettings(deps.context.secrets);
  if (choice.kind === 'embedded') {
    const action = await vscode.window.showInformationMessage(
      'Configure a Firebolt store first; the copy goes from the embedded store to it.',
      'Configure Storage',
    );
    if (action) await vscode.commands.executeCommand('memory.configureStorage');
    return undefined;
  }
  const ready = await deps.host.ready();
  const { identity, dataDir, runtime } = ready;
  const target = backendFor(choice, dataDir);
  // Editor capture waits while the copy runs: its writes would compete with the copy's transactions.
  const releaseCapture = deps.capture.sink.hold();
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Copying memories to Firebolt', cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const cancellation = token.onCancellationRequested(() => abort.abort());
        let reported = 0;
        const onProgress = ({ phase, done, total }: CopyProgress): void => {
          const percent = phase === 'memories' && total > 0 ? (done / total) * 90 : phase === 'verify' ? 100 : reported;
          progress.report({ message: `${phase}: ${done} of ${total}`, increment: Math.max(0, percent - reported) });
          reported = Math.max(reported, percent);
        };
        try {
          // In the memory process when the core is there, so reading the embedded store never blocks this thread.
          const result =
            runtime.kind === 'daemon'
              ? await runtime.connection.copy(target, identity.userId, { onProgress, signal: abort.signal })
              : await copyHere(dataDir, target, identity.userId, onProgress, abort.signal);
          const user = result.users[0];
          const counts = user
            ? `${user.memories_copied} copied, ${user.memories_skipped} already there`
            : 'nothing to copy';
          const message = result.cancelled
            ? `Copy cancelled (${counts}); run it again to resume.`
            : result.verified
              ? `Copy finished and verified: ${counts}.`
              : `Copy finished but the counts differ: ${JSON.stringify(user?.mismatches ?? [])}. Run it again; it only copies what is missing.`;
          // The copy is in the store now shown by the panel; a cancelled copy needs no answer.
          if (result.cancelled) confirm(deps.log, message);
          else if (result.verified)
            offer(deps.log, message, {
              label: 'Show in Panel',
              run: () => vscode.commands.executeCommand(PANEL_FOCUS_COMMAND),
            });
          else {
            deps.log.info(message);
            void vscode.window.showWarningMessage(message);
          }
          return result;
        } finally {
          cancellation.dispose();
        }
      },
    );
  } finally {
    releaseCapture();
  }
}

/** The copy in this window (the core is here when Copilot-model extraction is on). */
async function copyHere(
  dataDir: string,
  backend: BackendConfig,
  userId: string,
  onProgress: (progress: CopyProgress) => void,
  signal: AbortSignal,
): Promise<CopyResult> {
  const source = createStore({ kind: 'sqlite', dataDir });
  // The bare Firebolt store: a copy must fail when Firebolt is away, not queue in an outbox.
  const target = createStore(backend);
  await source.open();
  try {
    await target.open();
    try {
      return await copyStore(source, target, { users: [userId], signal, onProgress });
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
