import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LexicalIndex } from '../../src/stores/common/lexicalIndex.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/stores/sqlite/indexSnapshotFormat.ts';
import { plainMeta } from '../../src/stores/sqlite/metaRow.ts';
import { MetaTable } from '../../src/stores/sqlite/metaTable.ts';
import { memoryMeta as meta } from '../support/memoryMeta.ts';

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

test('a table loaded from a file answers as the Map of its metas did: lookups, fields, store order', () => {
  const table = loadedTable();
  assert.equal(table.size, 4);
  assert.equal(table.get('mem_d')?.importance, 2);
  assert.deepEqual(table.get('mem_d')?.tags, ['infra']);
  assert.deepEqual(plainMeta(table.get('mem_d')!), meta('mem_d', { importance: 2, tags: ['infra'] }));
  assert.equal(table.get('mem_x'), undefined);
  assert.deepEqual(
    [...table.values()].map((row) => row.memory_id),
    STORED,
  );
  assert.equal(table.atRow(1)?.memory_id, 'mem_a');
  assert.equal(table.rowOf('mem_a'), 1);
});

test('changes after the load: deleted rows are gone, new memories come after the stored ones, a returning one takes its row back', () => {
  const table = loadedTable();
  const map = new Map([...table.values()].map((row) => [row.memory_id, plainMeta(row)]));
  const replaced = meta('mem_b', { importance: 9, tags: ['infra', 'ops'], entities: ['Redis'], pinned: true });
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
    for (const id of [...STORED, 'mem_new', 'mem_missing'])
      assert.deepEqual(table.get(id) && plainMeta(table.get(id)!), map.get(id), `step ${at}: ${id}`);
  });
  assert.deepEqual(
    [...table.values()].map((row) => row.memory_id),
    STORED,
    'store order: mem_a is back in its row, mem_new (row 4) is gone',
  );
  assert.equal(table.atRow(4), undefined);
  assert.equal(table.rowOf('mem_new'), 4, 'a forgotten memory keeps its row for when it comes back');
});

test('a row read before a write answers as the row is after it: there is no copy to go stale', () => {
  const table = loadedTable();
  const before = table.get('mem_c')!;
  table.set('mem_c', meta('mem_c', { importance: 42, tags: ['later'] }));
  assert.equal(before.importance, 42);
  assert.deepEqual(before.tags, ['later']);
});
