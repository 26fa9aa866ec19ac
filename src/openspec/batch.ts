import { MemoryError } from '../core/domain/errors.ts';
import type { ServerContext } from '../mcp/serverContext.ts';
import { createEntry, deleteEntry, updateEntry } from './knowledgeOperations.ts';
import { asMemoryError } from './openSpecResponses.ts';
import { optionalString, readIdentifiers, requireObject } from './openSpecRequest.ts';

export const MAX_BATCH_OPERATIONS = 100;

export type BatchOutcome =
  | { index: number; operation: string; ok: true; result: unknown }
  | { index: number; operation: string; ok: false; error: ReturnType<MemoryError['toJSON']> };

/**
 * POST /openspec/v1/knowledge/batch: creates, updates and deletes in order, each exactly as its
 * own route would do it. Not atomic: every operation reports its own outcome, so one bad entry
 * does not cost the rest (seed 001 bulkDelete reports `failed` the same way).
 */
export async function runBatch(
  context: ServerContext,
  body: unknown,
): Promise<{ results: BatchOutcome[]; succeeded: number; failed: number }> {
  const operations = requireObject(body, 'body').operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > MAX_BATCH_OPERATIONS) {
    throw new MemoryError('INVALID_INPUT', `operations must be a list of 1 to ${MAX_BATCH_OPERATIONS} operations.`, {
      details: { field: 'operations' },
    });
  }
  const results: BatchOutcome[] = [];
  for (const [index, raw] of operations.entries()) {
    const kind =
      typeof raw === 'object' && raw !== null && typeof (raw as { operation?: unknown }).operation === 'string'
        ? (raw as { operation: string }).operation
        : 'unknown';
    try {
      results.push({ index, operation: kind, ok: true, result: await runOne(context, raw, index) });
    } catch (error) {
      results.push({ index, operation: kind, ok: false, error: asMemoryError(error, `batch.${kind}`).toJSON() });
    }
  }
  const succeeded = results.filter((outcome) => outcome.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

async function runOne(context: ServerContext, raw: unknown, index: number): Promise<unknown> {
  const operation = requireObject(raw, `operations[${index}]`);
  const id = optionalString(operation.id, `operations[${index}].id`);
  const location = {
    ...(typeof operation.layer === 'string' ? { layer: operation.layer } : {}),
    identifiers: readIdentifiers(operation.identifiers, `operations[${index}].identifiers`),
  };
  switch (operation.operation) {
    case 'create':
      return createEntry(context, operation.input);
    case 'update':
      return updateEntry(context, requireBatchId(id, index), operation.input, location);
    case 'delete':
      return deleteEntry(context, requireBatchId(id, index), location);
    default:
      throw new MemoryError('INVALID_INPUT', `operations[${index}].operation must be create, update or delete.`, {
        details: { field: `operations[${index}].operation` },
      });
  }
}

function requireBatchId(id: string | undefined, index: number): string {
  if (id === undefined)
    throw new MemoryError('INVALID_INPUT', `operations[${index}].id is required for update and delete.`, {
      details: { field: `operations[${index}].id` },
    });
  return id;
}
