import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactMemoryRow } from '../../src/stores/sqlite/compactMemoryRow.ts';
import { MEMORY_COLUMNS, memoryRowOf, rowToMemory } from '../../src/stores/sqlite/rowMapping.ts';
import { makeMemory, newUserId } from '../contract/fixtures.ts';

describe('compactMemoryRow', () => {
  it('keeps every column of the row, in MEMORY_COLUMNS order, frozen, and parses to the same record', () => {
    const memory = makeMemory(newUserId(), {
      content: 'The build targets node24.',
      tags: ['build'],
      metadata: { ticket: 'ENG-1' },
    });
    const row = memoryRowOf(memory);
    const compact = compactMemoryRow(row);
    assert.deepEqual(Object.keys(compact), [...MEMORY_COLUMNS]);
    assert.deepEqual(compact, row);
    assert.ok(Object.isFrozen(compact));
    assert.deepEqual(rowToMemory(compact), memory);
  });
});
