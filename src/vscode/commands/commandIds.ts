/**
 * Every command: id, palette title and argument types in one map. Registration goes through
 * `registerCommand` (registerCommands.ts) keyed by this map, and package.json's
 * `contributes.commands` is generated from it and checked by a unit test. Pure: no `vscode` import.
 */

import type { MemoryLayer } from '../../core/domain/layers.ts';
import type { ClientId } from '../mcp/clientConfigs.ts';

export interface CommandArgs {
  'memory.rememberSelection': [];
  'memory.remember': [text?: string];
  'memory.search': [query?: string];
  'memory.showPanel': [];
  'memory.checkpoint': [];
  'memory.clearWorkingMemory': [];
  'memory.forget': [memoryId?: string];
  'memory.forgetSeveral': [memoryIds?: string[]];
  'memory.changeCategory': [memoryId?: string];
  'memory.promote': [memoryId?: string, toLayer?: MemoryLayer];
  'memory.forgetAll': [];
  'memory.export': [targetPath?: string];
  'memory.import': [sourcePath?: string];
  'memory.configureStorage': [];
  'memory.copyToFirebolt': [];
  'memory.checkFireboltConnection': [];
  'memory.setEmbeddingApiKey': [];
  'memory.configureMcpClients': [client?: ClientId | 'show'];
  'memory.showLogs': [];
  'memory.showActivationTime': [];
  'memory.reviewStaleMemories': [];
  'memory.openAnchoredMemories': [memoryIds: string[]];
  'memory.reviewAnchoredMemory': [memoryIds: string[]];
  'memory.updateAnchoredMemory': [memoryIds: string[]];
  'memory.forgetAnchoredMemory': [memoryIds: string[]];
  'memory.shareProjectMemories': [];
  'memory.writeAgentsSection': [file?: string];
}

export type CommandId = keyof CommandArgs;

interface CommandSpec {
  title: string;
  /** Hidden from the command palette (only reachable from UI elements). */
  hidden?: boolean;
  icon?: string;
}

export const COMMANDS: Record<CommandId, CommandSpec> = {
  'memory.rememberSelection': { title: 'Remember Selection' },
  'memory.remember': { title: 'Remember…' },
  'memory.search': { title: 'Search Memories', icon: '$(search)' },
  'memory.showPanel': { title: 'Show Memory Panel' },
  'memory.checkpoint': { title: 'Checkpoint Working Memory' },
  'memory.clearWorkingMemory': { title: 'Clear Working Memory' },
  'memory.forget': { title: 'Forget Memory…' },
  'memory.forgetSeveral': { title: 'Forget Memories…' },
  'memory.changeCategory': { title: 'Change Memory Category…' },
  'memory.promote': { title: 'Promote Memory to Layer…' },
  'memory.forgetAll': { title: 'Forget All My Memories' },
  'memory.export': { title: 'Export Memories (JSON)' },
  'memory.import': { title: 'Import Memories' },
  'memory.configureStorage': { title: 'Configure Storage' },
  'memory.copyToFirebolt': { title: 'Copy Local Memories to Firebolt' },
  'memory.checkFireboltConnection': { title: 'Check Firebolt Connection' },
  'memory.setEmbeddingApiKey': { title: 'Set Embedding API Key' },
  'memory.configureMcpClients': { title: 'Configure MCP for Other Clients' },
  'memory.showLogs': { title: 'Show Logs' },
  'memory.showActivationTime': { title: 'Show Activation Time' },
  'memory.reviewStaleMemories': { title: 'Review Stale Memories' },
  'memory.openAnchoredMemories': { title: 'Open Anchored Memories', hidden: true },
  'memory.reviewAnchoredMemory': { title: 'Review Memory About Changed Code', hidden: true },
  'memory.updateAnchoredMemory': { title: 'Update Memory to the Code as It Is', hidden: true },
  'memory.forgetAnchoredMemory': { title: 'Forget Memory About Changed Code', hidden: true },
  'memory.shareProjectMemories': { title: 'Share Project Memories in This Repository' },
  'memory.writeAgentsSection': { title: 'Write Pinned Project Memories to AGENTS.md…' },
};

export const COMMAND_CATEGORY = 'Memory';

/** The `contributes.commands` array package.json must contain. */
export function manifestCommands(): Array<Record<string, string>> {
  return (Object.keys(COMMANDS) as CommandId[]).map((command) => ({
    command,
    title: COMMANDS[command].title,
    category: COMMAND_CATEGORY,
    ...(COMMANDS[command].icon ? { icon: COMMANDS[command].icon as string } : {}),
  }));
}

/** Commands reachable only from UI elements (hidden from the palette: they need arguments). */
export function hiddenCommands(): CommandId[] {
  return (Object.keys(COMMANDS) as CommandId[]).filter((command) => COMMANDS[command].hidden === true);
}
