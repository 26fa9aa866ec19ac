import * as vscode from 'vscode';
import { ActivationTimes } from './activationTimes.ts';
import { CaptureController } from './capture/captureController.ts';
import { registerChatParticipant } from './chat/chatParticipant.ts';
import { registerCommands } from './commands/registerCommands.ts';
import { migrateEditorSettings } from './config/migrateEditorSettings.ts';
import { E2eProbe } from './e2eProbe.ts';
import { Log } from './log.ts';
import { registerWithCursor } from './mcp/cursorRegistration.ts';
import { MemoryEndpoint } from './mcp/memoryEndpoint.ts';
import { registerMcpProvider } from './mcp/registerMcpProvider.ts';
import { registerPanelWithHost } from './panelRegistration.ts';
import { MemoryHost } from './runtime/memoryHost.ts';
import { StatusBar } from './status/statusBar.ts';
import { loadNodeSqlite, sqliteRuntimeProblem } from './runtimeSupport.ts';
import { watchSettings } from './watchSettings.ts';
import { workspaceAnchors } from './anchors/workspaceAnchors.ts';
import { RepoMemoryController } from './repoMemories/repoMemoryController.ts';

/**
 * Composition root. Registration only, so activation stays fast: the memory store opens right
 * after activate() returns, and the MCP endpoint only when a client asks for it.
 */
export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const activation = new ActivationTimes();
  const log = new Log();
  const problem = sqliteRuntimeProblem(loadNodeSqlite, {
    node: process.versions.node,
    electron: process.versions.electron,
    editor: vscode.version,
  });
  if (problem !== null) {
    // Nothing else is registered: every feature needs the store, and a half-working extension would fail later with a stack trace.
    context.subscriptions.push(log);
    log.error('Unsupported editor runtime', problem, [
      {
        title: 'Download VS Code',
        run: () => vscode.env.openExternal(vscode.Uri.parse('https://code.visualstudio.com/download')),
      },
    ]);
    return;
  }
  const probe = E2eProbe.fromEnvironment();
  const host = new MemoryHost(context, log);
  const endpoint = new MemoryEndpoint(host, log);
  const capture = new CaptureController(host, log);
  const status = new StatusBar(host, log);
  const panel = registerPanelWithHost(context, host, log);
  const anchors = workspaceAnchors(host, log);
  const repoMemories = new RepoMemoryController(host, log);
  context.subscriptions.push(
    log,
    host,
    endpoint,
    capture,
    status,
    registerMcpProvider(endpoint, log, () => probe?.resolvedByEditor()),
    registerWithCursor(endpoint, log),
    panel,
    ...(anchors ? [anchors] : []),
    repoMemories,
    ...registerCommands({ context, host, log, capture, endpoint, activation, panel, anchors, repoMemories }),
    watchSettings(context, host, log),
    registerChatParticipant(context, host, log),
  );
  if (probe) context.subscriptions.push(endpoint.onDidStart((info) => probe.endpoint(info)));

  activation.activateMs = Math.round((performance.now() - started) * 10) / 10;
  log.info(`Activated in ${activation.activateMs} ms (VS Code ${vscode.version}, Node ${process.version}).`);

  context.subscriptions.push(
    host.onDidChange((ready) => {
      if (!ready) return;
      if (activation.storeReadyMs === null) {
        activation.storeReadyMs = Math.round(performance.now() - started);
        log.info(activation.describe());
      }
      if (probe) {
        // The e2e suite calls tools over HTTP without an MCP client UI, so the endpoint starts with the store.
        probe.ready(ready, activation);
        endpoint.ensureStarted().catch((error: unknown) => log.error('Cannot start the MCP server', error));
      }
    }),
  );

  setTimeout(() => {
    // Settings move to their new prefix before the store reads them, so it opens on the user's backend.
    migrateEditorSettings(log)
      .catch((error: unknown) => log.error('Cannot migrate settings to the fireboltMemory prefix', error))
      .then(() => host.ready())
      .catch((error: unknown) => {
        status.showError(error instanceof Error ? error.message : String(error));
        log.error('Cannot open the memory store', error, [
          { title: 'Configure Storage', run: () => vscode.commands.executeCommand('memory.configureStorage') },
        ]);
      });
  }, 0);
}

export function deactivate(): void {
  // Everything is in context.subscriptions; VS Code disposes it (closing the store and the endpoint).
}
