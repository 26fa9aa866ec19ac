import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LexicalIndex } from '../../src/stores/common/lexicalIndex.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/stores/sqlite/indexSnapshotFormat.ts';
import type { MemoryMeta } from '../../src/stores/sqlite/memoryMeta.ts';
import { MetaTable } from '../../src/stores/sqlite/metaTable.ts';

function meta(memory_id: string, overrides: Partial<MemoryMeta> = {}): MemoryMeta {
  return {
    memory_id,
    layer: 'user',
    scope_id: 'alice',
    project_id: null,
    category: 'semantic',
    subtype: 'project',
    entities: [],
    tags: [],
    time_ms: 1,
    confidence: 1,
    pinned: false,
    source_type: 'explicit',
    source_session: null,
    conversation: null,
    question: false,
    deleted: false,
    superseded: false,
    importance: 0.5,
    access_count: 0,
    last_accessed_ms: 1,
    created_ms: 1,
    decay_factor: 1,
    declared_project: null,
    anchored: false,
    ...overrides,
  };
}

const STORED = ['mem_c', 'mem_a', 'mem_d', 'mem_b'];

function loadedTable(): MetaTable {
  const bytes = encodeSnapshot({
    stamp: { storeId: 's', userId: 'alice', seq: 1, schemaVersion: 1, analyzerVersion: 1, bm25: { k1: 0.9, b: 0.4 } },
    metas: STORED.map((id, row) => meta(id, { importance: row, tags: row === 2 ? ['infra'] : [] })),
    lexical: new LexicalIndex().exportDocuments(),
    vectors: [],
  });
  return new MetaTable(decodeSnapshot(bytes).metas);
}

test('a table loaded from a file answers as the Map of its metas did: lookups, one object per memory, store order', () => {
  const table = loadedTable();
  assert.equal(table.size, 4);
  assert.equal(table.get('mem_d')?.importance, 2);
  assert.deepEqual(table.get('mem_d')?.tags, ['infra']);
  assert.equal(table.get('mem_d'), table.get('mem_d'), 'the same object every time');
  assert.equal(table.get('mem_x'), undefined);
  assert.deepEqual(
    [...table.values()].map((row) => row.memory_id),
    STORED,
  );
  assert.equal(table.atRow(1), table.get('mem_a'));
});

test('changes after the load: deleted rows are gone, new and returning memories come after the stored ones', () => {
  const table = loadedTable();
  const map = new Map([...table.values()].map((row) => [row.memory_id, row]));
  const replaced = meta('mem_b', { importance: 9 });
  const steps: Array<() => void> = [
    () => table.delete('mem_a'),
    () => table.set('mem_new', meta('mem_new')),
    () => table.set('mem_b', replaced),
    () => table.set('mem_a', meta('mem_a', { importance: 7 })),
    () => table.delete('mem_new'),
    () => table.delete('mem_missing'),
  ];
  const mirror: Array<() => void> = [
    () => map.delete('mem_a'),
    () => map.set('mem_new', meta('mem_new')),
    () => map.set('mem_b', replaced),
    () => map.set('mem_a', meta('mem_a', { importance: 7 })),
    () => map.delete('mem_new'),
    () => map.delete('mem_missing'),
  ];
  steps.forEach((step, at) => {
    step();
    mirror[at]!();
    assert.equal(table.size, map.size, `step ${at}`);
    assert.deepEqual(
      [...table.values()].map((row) => [row.memory_id, row.importance]),
      [...map.values()].map((row) => [row.memory_id, row.importance]),
      `step ${at}`,
    );
    for (const id of [...STORED, 'mem_new', 'mem_missing'])
      assert.equal(table.get(id)?.importance, map.get(id)?.importance, `step ${at}: ${id}`);
  });
  assert.equal(table.get('mem_b'), replaced);
  assert.equal(table.atRow(1), undefined, 'the deleted row, though its memory came back as a new entry');
});

test('the rows not used yet are made later, in slices, as the same objects a lookup returns', async () => {
  const table = loadedTable();
  const early = table.get('mem_a');
  table.delete('mem_b');
  assert.equal(table.rowsNotMade(), 2);
  table.makeRestLater(0, 1);
  // Slices run on timers; a busy machine delays them, so wait for them (up to 10 s) rather than a fixed time.
  for (const deadline = Date.now() + 10_000; table.rowsNotMade() > 0 && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(table.rowsNotMade(), 0);
  assert.equal(table.get('mem_a'), early);
  assert.equal(table.get('mem_b'), undefined);
  assert.deepEqual(
    [...table.values()].map((row) => row.memory_id),
    ['mem_c', 'mem_a', 'mem_d'],
  );
});
