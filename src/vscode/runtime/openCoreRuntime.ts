import { join } from 'node:path';
import * as vscode from 'vscode';
import { openRemoteCore } from '../../daemon/daemonLauncher.ts';
import { createRuntime } from '../../runtime/createRuntime.ts';
import type { RuntimeConfig } from '../../runtime/runtimeConfig.ts';
import { createVscodeLmExtractor, USE_LANGUAGE_MODEL_SETTING } from '../extraction/vscodeLmExtractor.ts';
import { createVscodeLmEnricher } from '../extraction/vscodeLmEnricher.ts';
import { PathFilter } from '../../core/editor/pathPrivacy.ts';
import { filesExcludeGlobs, setting } from '../config/vscodeSettings.ts';
import type { Log } from '../log.ts';
import type { CoreRuntime } from './coreRuntime.ts';
import { SETTINGS_SECTION, settingId } from '../../core/domain/settingIds.ts';

/**
 * Opens the window's core. Normally in the background memory process, shared by every window
 * (started here when none runs). With extraction by a Copilot model the core stays in this
 * process, because only the extension host can call the editor's language models.
 */
export async function openCoreRuntime(
  context: vscode.ExtensionContext,
  config: RuntimeConfig,
  userId: string,
  log: Log,
): Promise<CoreRuntime> {
  const languageModel = createVscodeLmExtractor(vscode, vscode.workspace.getConfiguration(SETTINGS_SECTION));
  if (languageModel === null) {
    const opened = await openRemoteCore({
      dataDir: config.dataDir,
      command: {
        execPath: process.execPath,
        cliPath: join(context.extensionUri.fsPath, 'dist', 'cli.js'),
        env: process.env,
        ...graceFromEnvironment(),
      },
      hello: { config, userId },
      logger: log.asLogger(),
    });
    log.info(
      `${opened.started ? 'Started' : 'Joined'} the memory process ${opened.opened.pid} (${opened.address.socketPath}); its log: ${opened.address.logFile}`,
    );
    return {
      kind: 'daemon',
      core: opened.core,
      pid: opened.opened.pid,
      connection: opened.connection,
      logFile: opened.address.logFile,
      started: opened.started,
    };
  }
  log.info(
    'Extraction uses a Copilot model: the memory core runs in this window (the language-model API exists only here).',
  );
  const core = await createRuntime(config, log.asLogger());
  const extraction = await core.startExtraction(languageModel);
  const enricher = createVscodeLmEnricher(
    vscode,
    vscode.workspace.getConfiguration(SETTINGS_SECTION),
    vscode.workspace.isTrusted,
  );
  if (enricher) {
    // Files the user keeps out of capture stay out of the model's prompt too.
    const paths = new PathFilter([...filesExcludeGlobs(), ...setting('capture.exclude')]);
    core.startEnrichment(enricher, { allowsPath: (path) => paths.allows(path) });
    log.info(
      `Stored memories get search keys from ${enricher.name} in the background (${settingId(USE_LANGUAGE_MODEL_SETTING)} is on).`,
    );
  } else if (!vscode.workspace.isTrusted) {
    log.info('Search-key enrichment is off in Restricted Mode: nothing from this workspace is sent to a model.');
  }
  core.startMaintenance({
    users: () => [userId],
    onReport: (report) => log.info(`Daily maintenance: ${JSON.stringify(report)}`),
    onError: (error) => log.warn(`Daily maintenance failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  extraction
    .resumePending(userId)
    .catch((error: unknown) =>
      log.warn(`Resuming pending extraction failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  return { kind: 'in-process', core: core, local: core };
}

/** Test suites shorten the 5-minute grace period (FML_DAEMON_GRACE_MS) so their processes do not outlive them. */
function graceFromEnvironment(): { graceMs?: number } {
  const value = Number(process.env.FML_DAEMON_GRACE_MS);
  return Number.isInteger(value) && value >= 0 && process.env.FML_DAEMON_GRACE_MS !== undefined
    ? { graceMs: value }
    : {};
}
