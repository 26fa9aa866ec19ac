import type { ForgetMemoryInput } from '../api/longTermApi.ts';
import { LIMITS } from '../limits.ts';
import { MemoryError } from '../domain/errors.ts';
import { requireId } from '../validation.ts';

/** The ids a forget names, validated: `memory_id`, `memory_ids`, or both (duplicates count once). */
export function forgetIds(input: ForgetMemoryInput): string[] {
  const listed = input.memory_ids;
  if (listed !== undefined && (!Array.isArray(listed) || listed.length > LIMITS.batchIds)) {
    throw new MemoryError('INVALID_INPUT', `memory_ids must be a list of at most ${LIMITS.batchIds} ids.`, {
      details: { field: 'memory_ids' },
    });
  }
  const ids = [
    ...(input.memory_id === undefined ? [] : [requireId(input.memory_id, 'memory_id')]),
    ...(listed ?? []).map((id) => requireId(id, 'memory_ids')),
  ];
  if (ids.length === 0) {
    throw new MemoryError('MISSING_IDENTIFIER', 'Name the memory to forget: memory_id, or memory_ids for many.', {
      details: { field: 'memory_id' },
    });
  }
  return [...new Set(ids)];
}

/** A version as a caller states it: a whole number from 1. */
export function requireVersion(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new MemoryError('INVALID_INPUT', 'expected_version must be a whole number of at least 1.', {
      details: { field: 'expected_version' },
    });
  }
  return value;
}
