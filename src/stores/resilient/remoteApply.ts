import type { DeletionReceipt, MemoryStore } from '../../core/ports/memoryStore.ts';
import type { ChangeOutcome, ForgetOutcome } from '../../core/domain/memoryChange.ts';
import type { OutboxOp } from './outboxOps.ts';
import type { GuardedInsert } from '../../core/ports/duplicateGuard.ts';

/** What a write returned, for the ones whose result the caller sees. */
export type ApplyResult = boolean | DeletionReceipt | ChangeOutcome | ForgetOutcome | GuardedInsert | void;

/**
 * Applies one outbox write to the remote store so that applying it twice leaves the same state
 * as once (replays after an outage, or after a COMMIT whose answer was lost):
 * - insert: on a retry (`mayExist`), a row that is already there was this insert: nothing to do,
 *   because Firebolt does not enforce primary keys;
 * - change: the intent is applied to Firebolt's row as it is now (merging keys, adding tags twice
 *   changes nothing). The version was checked when the replica took the change, so it is not
 *   checked again, and a memory forgotten meanwhile takes no change (forget wins). A row Firebolt
 *   lacks (written before the outbox existed) is copied from the replica, which has the change;
 * - forget and restore set a state, which is the same however often they run.
 * Access-log rows are appended; a retry after a lost COMMIT answer can append them twice, the
 * one write kind where that is possible.
 */
export async function applyToRemote(
  remote: MemoryStore,
  local: MemoryStore,
  op: OutboxOp,
  mayExist: boolean,
): Promise<ApplyResult> {
  switch (op.op) {
    case 'insertMemory':
      if (mayExist && (await remote.getMemories(op.memory.user_id, [op.memory.memory_id])).length > 0) return undefined;
      await remote.insertMemory(op.memory, op.embedding);
      return undefined;
    case 'changeMemory': {
      const { expected_version: _checkedLocally, ...request } = op.request;
      const outcome = await remote.changeMemory({ ...request, if_forgotten: 'drop' });
      if (outcome.status === 'dropped' && outcome.reason === 'missing') {
        const [copy] = await local.getMemories(request.user_id, [request.memory_id]);
        if (copy === undefined || copy.deleted_at !== null) return outcome;
        const stored = (await local.getEmbeddings(copy.user_id, [copy.memory_id])).get(copy.memory_id) ?? null;
        await remote.insertMemory(copy, stored);
      }
      return outcome;
    }
    case 'forgetMemories':
      return remote.forgetMemories(op.userId, op.memoryIds, op.at);
    case 'restoreMemories':
      return remote.restoreMemories(op.userId, op.memoryIds, op.at);
    case 'hardDeleteMemory':
      return remote.hardDeleteMemory(op.userId, op.memoryId, op.reason);
    case 'deleteUser':
      return remote.deleteUser(op.userId);
    case 'commitWorking':
      await remote.commitWorking(op.change);
      return undefined;
    case 'deleteSession':
      return remote.deleteSession(op.userId, op.sessionId);
    case 'recordAccess':
      await remote.recordAccess(op.entries);
      return undefined;
  }
}
