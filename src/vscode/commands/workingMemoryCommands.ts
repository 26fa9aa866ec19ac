import * as vscode from 'vscode';
import type { CheckpointOutput, ClearWorkingMemoryOutput } from '../../core/api/workingMemoryApi.ts';
import { PANEL_FOCUS_COMMAND } from '../panelIds.ts';
import type { CommandDeps } from './commandDeps.ts';
import { confirm, offer } from './feedback.ts';

export async function checkpointCommand(deps: CommandDeps): Promise<CheckpointOutput> {
  // Include the latest editor context, which may still be waiting for its debounce.
  await deps.capture.sink.flush();
  const { core, identity } = await deps.host.ready();
  const result = await core.checkpointWorkingMemory({
    session_id: identity.sessionId,
    user_id: identity.userId,
    force: true,
  });
  const message = result.skipped_reason
    ? `Checkpoint: nothing saved (${result.skipped_reason}).`
    : `Checkpoint: ${result.memories_created} new and ${result.memories_updated} updated memories.`;
  // Memories it saved can be looked at; "nothing saved" needs no answer.
  if (result.skipped_reason || result.memories_created + result.memories_updated === 0) confirm(deps.log, message);
  else
    offer(deps.log, message, {
      label: 'Show in Panel',
      run: () => vscode.commands.executeCommand(PANEL_FOCUS_COMMAND),
    });
  return result;
}

export async function clearWorkingMemoryCommand(deps: CommandDeps): Promise<ClearWorkingMemoryOutput> {
  const { core, identity } = await deps.host.ready();
  const result = await core.clearWorkingMemory({
    session_id: identity.sessionId,
    user_id: identity.userId,
    checkpoint_first: false,
  });
  confirm(deps.log, `Working memory cleared (${result.items_removed} items).`);
  // The editor context is still true; it comes back on the next capture.
  deps.capture.resend();
  return result;
}
