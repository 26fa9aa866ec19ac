import { MemoryError } from '../../core/domain/errors.ts';
import type { DeletionReceipt, MemoryStore } from '../../core/ports/memoryStore.ts';
import type { OutboxOp } from './outboxOps.ts';

/** What a write returned, for the ones whose result the caller sees. */
export type ApplyResult = boolean | DeletionReceipt | void;

/**
 * Applies one outbox write to the remote store so that applying it twice leaves the same state
 * as once (replays after an outage, or after a COMMIT whose answer was lost):
 * - insert: on a retry (`mayExist`), an existing row is replaced instead of inserted again,
 *   because Firebolt does not enforce primary keys;
 * - update: a row the remote does not have is inserted (upsert by id), the embedding for
 *   'keep' coming from the local replica, which always has the latest vector;
 * - working-memory changes are MERGEs, deletes are idempotent by nature.
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
      if (mayExist && (await remote.getMemories(op.memory.user_id, [op.memory.memory_id])).length > 0) {
        await remote.updateMemory(op.memory, op.embedding);
        return undefined;
      }
      await remote.insertMemory(op.memory, op.embedding);
      return undefined;
    case 'updateMemory': {
      const embedding = op.embedding === 'keep' ? undefined : op.embedding;
      try {
        await remote.updateMemory(op.memory, embedding);
      } catch (error) {
        if (!(error instanceof MemoryError) || error.code !== 'MEMORY_NOT_FOUND') throw error;
        const stored =
          embedding === undefined
            ? ((await local.getEmbeddings(op.memory.user_id, [op.memory.memory_id])).get(op.memory.memory_id) ?? null)
            : embedding;
        await remote.insertMemory(op.memory, stored);
      }
      return undefined;
    }
    case 'hardDeleteMemory':
      return remote.hardDeleteMemory(op.userId, op.memoryId);
    case 'deleteUser':
      return remote.deleteUser(op.userId);
    case 'commitWorking':
      await remote.commitWorking(op.change);
      return undefined;
    case 'recordAccess':
      await remote.recordAccess(op.entries);
      return undefined;
  }
}
