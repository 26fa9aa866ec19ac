import * as vscode from 'vscode';
import type { Log } from '../log.ts';
import { checkpointCommand, clearWorkingMemoryCommand } from './workingMemoryCommands.ts';
import type { CommandDeps } from './commandDeps.ts';
import type { CommandArgs, CommandId } from './commandIds.ts';
import { changeCategoryCommand } from './changeCategoryCommand.ts';
import { checkFireboltConnectionCommand } from './checkFireboltConnection.ts';
import { configureMcpClientsCommand } from './configureMcpClients.ts';
import { configureStorageCommand } from './configureStorage.ts';
import { copyToFireboltCommand } from './copyToFirebolt.ts';
import { exportCommand, importCommand } from './exportImport.ts';
import { forgetAllCommand, forgetCommand, forgetSeveralCommand } from './forgetCommands.ts';
import { promoteCommand } from './promoteCommand.ts';
import { rememberCommand, rememberSelectionCommand } from './rememberCommands.ts';
import { MemoryDocuments } from './memoryDocuments.ts';
import { searchCommand } from './searchCommand.ts';
import { setEmbeddingApiKeyCommand } from './setEmbeddingApiKey.ts';
import { PANEL_FOCUS_COMMAND } from '../panelIds.ts';
import { reviewStaleMemoriesCommand } from '../anchors/reviewStaleMemories.ts';
import { openAnchoredMemoriesCommand } from '../anchors/openAnchoredMemories.ts';
import { AnchorCodeLens } from '../anchors/anchorCodeLens.ts';
import {
  forgetAnchoredMemoryCommand,
  reviewAnchoredMemoryCommand,
  updateAnchoredMemoryCommand,
} from '../anchors/changedCodeActions.ts';
import { CodeVersions } from '../anchors/codeVersions.ts';

/** The diff documents Review opens; made on first use, disposed with the commands. */
let versions: CodeVersions | null = null;
function codeVersions(): CodeVersions {
  versions ??= new CodeVersions();
  return versions;
}

type Handler<K extends CommandId> = (deps: CommandDeps, ...args: CommandArgs[K]) => Promise<unknown> | unknown;

const HANDLERS: { [K in CommandId]: Handler<K> } = {
  'memory.rememberSelection': rememberSelectionCommand,
  'memory.remember': rememberCommand,
  'memory.search': searchCommand,
  'memory.showPanel': async (deps) => {
    await vscode.commands.executeCommand(PANEL_FOCUS_COMMAND);
    // Focusing the view leaves the focus on the webview's body (or wherever it last was): move it to the list.
    deps.panel.focusList();
  },
  'memory.checkpoint': checkpointCommand,
  'memory.clearWorkingMemory': clearWorkingMemoryCommand,
  'memory.forget': forgetCommand,
  'memory.forgetSeveral': forgetSeveralCommand,
  'memory.changeCategory': changeCategoryCommand,
  'memory.promote': promoteCommand,
  'memory.forgetAll': forgetAllCommand,
  'memory.export': exportCommand,
  'memory.import': importCommand,
  'memory.configureStorage': configureStorageCommand,
  'memory.copyToFirebolt': copyToFireboltCommand,
  'memory.checkFireboltConnection': checkFireboltConnectionCommand,
  'memory.setEmbeddingApiKey': setEmbeddingApiKeyCommand,
  'memory.configureMcpClients': configureMcpClientsCommand,
  'memory.showLogs': (deps) => deps.log.channel.show(),
  'memory.reviewStaleMemories': reviewStaleMemoriesCommand,
  'memory.openAnchoredMemories': openAnchoredMemoriesCommand,
  'memory.reviewAnchoredMemory': (deps, memoryIds) => reviewAnchoredMemoryCommand(deps, codeVersions(), memoryIds),
  'memory.updateAnchoredMemory': updateAnchoredMemoryCommand,
  'memory.forgetAnchoredMemory': forgetAnchoredMemoryCommand,
  'memory.shareProjectMemories': (deps) => deps.repoMemories.enable(),
  'memory.writeAgentsSection': (deps, file) => deps.repoMemories.writeAgentsSection(file),
  'memory.showActivationTime': (deps) => {
    const message = deps.activation.describe();
    deps.log.info(message);
    void vscode.window.showInformationMessage(message);
    return deps.activation.snapshot();
  },
};

/**
 * Registers every command of the typed map. Errors are caught here once: logged with the
 * command's name and shown once; command bodies only throw.
 */
export function registerCommands(base: Omit<CommandDeps, 'documents'>): vscode.Disposable[] {
  const documents = new MemoryDocuments(base.host);
  const deps: CommandDeps = { ...base, documents };
  const lens = deps.anchors ? new AnchorCodeLens(deps.anchors) : null;
  const codeLens = lens ? [lens, vscode.languages.registerCodeLensProvider({ scheme: 'file' }, lens)] : [];
  return [
    documents,
    ...codeLens,
    {
      dispose: () => {
        versions?.dispose();
        versions = null;
      },
    },
    ...(Object.keys(HANDLERS) as CommandId[]).map((id) =>
      registerCommand(id, HANDLERS[id] as Handler<typeof id>, deps, deps.log),
    ),
  ];
}

function registerCommand<K extends CommandId>(
  id: K,
  handler: Handler<K>,
  deps: CommandDeps,
  log: Log,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(deps, ...(args as CommandArgs[K]));
    } catch (error) {
      log.error(`${id} failed`, error);
      return undefined;
    }
  });
}
