import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { LexicalIndex } from '../../src/stores/common/lexicalIndex.ts';
import type { MemoryMeta } from '../../src/stores/sqlite/memoryMeta.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/stores/sqlite/indexSnapshotFormat.ts';
import { MetaTable } from '../../src/stores/sqlite/metaTable.ts';
import { memoryMeta as meta } from '../support/memoryMeta.ts';
import { stringsOf } from '../../src/stores/common/stringList.ts';

/*
 * A loaded index reads the decoded file's arrays of memory ids and term names (the sorted key
 * indexes search them) and copies one only before it changes: a fresh process used to copy all
 * three at load (2.5 MB of its memory at 100,000 memories, docs/benchmarks.md, issue 31).
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const heapAfterCollect = (): number => {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};

const DOCUMENTS = 20_000;
const idOf = (at: number): string => `mem_${String(at).padStart(6, '0')}`;

/** A decoded file of DOCUMENTS memories, each with a term of its own and a shared one. */
function decodedFile(): ReturnType<typeof decodeSnapshot> {
  const lexical = new LexicalIndex();
  const metas: MemoryMeta[] = [];
  for (let at = 0; at < DOCUMENTS; at++) {
    lexical.upsert(idOf(at), {
      terms: new Map([
        [`word${at}`, 1],
        ['shared', 1],
      ]),
      length: 2,
    });
    metas.push(meta(idOf(at)));
  }
  const bytes = encodeSnapshot({
    stamp: { storeId: 's', userId: 'alice', seq: 1, schemaVersion: 1, analyzerVersion: 1, bm25: { k1: 0.9, b: 0.4 } },
    metas,
    lexical: lexical.exportDocuments(),
    vectors: [],
  });
  return decodeSnapshot(bytes);
}

const searchIds = (index: LexicalIndex, term: string): string[] =>
  index.search([{ term, weight: 1 }], 5).map((hit) => hit.memory_id);

test('a loaded index and meta table copy no id or term array at load', () => {
  const decoded = decodedFile();
  const before = heapAfterCollect();
  const lexical = LexicalIndex.fromDocuments(decoded.lexical);
  const table = new MetaTable(decoded.metas);
  const grown = heapAfterCollect() - before;
  // A copy of the ids is 8 bytes a memory, of the term names 8 bytes a term: three copies were about 480 KB here.
  assert.ok(grown < DOCUMENTS * 4, `the heap grew by ${grown} bytes over ${DOCUMENTS} memories`);
  assert.equal(lexical.size, DOCUMENTS);
  assert.equal(table.size, DOCUMENTS);
});

test("a loaded index writes the documents' own lengths and posting sizes in place instead of copying them", () => {
  const decoded = decodedFile();
  const terms = decoded.lexical.termNames.length;
  const before = process.memoryUsage().arrayBuffers;
  const lexical = LexicalIndex.fromDocuments(decoded.lexical);
  const grown = process.memoryUsage().arrayBuffers - before;
  // What a loaded index must make: by term, where each posting starts and its room (4 bytes each);
  // by document, its order and score (8 bytes each), its arena start and term count, and a search's
  // touched list and match masks (4 bytes each); a removed flag per term and per document (the
  // sorted key indexes). Copies of the lengths and the sizes were 8 bytes a document and 4 a term
  // more (240 KB here).
  const needed = terms * (2 * 4 + 1) + DOCUMENTS * (2 * 8 + 4 * 4 + 1);
  assert.ok(grown <= needed + 32 * 1024, `the index made ${grown} bytes of arrays where ${needed} are needed`);
  lexical.upsert('mem_new', { terms: new Map([['aardvark', 2]]), length: 4 });
  assert.deepEqual(searchIds(lexical, 'aardvark'), ['mem_new']);
  assert.equal(lexical.documentFrequency('shared'), DOCUMENTS);
});

/** A loaded index and meta table over a decoded file, and a check that the file's arrays are as decoded. */
function loadedIndex(): { lexical: LexicalIndex; table: MetaTable; assertDecodedUnchanged: (label: string) => void } {
  const decoded = decodedFile();
  const idsBefore = stringsOf(decoded.metas.ids);
  const termsBefore = stringsOf(decoded.lexical.termNames);
  const documentIdsBefore = stringsOf(decoded.lexical.ids);
  return {
    lexical: LexicalIndex.fromDocuments(decoded.lexical),
    table: new MetaTable(decoded.metas),
    assertDecodedUnchanged: (label) => {
      assert.deepEqual(stringsOf(decoded.metas.ids), idsBefore, `${label}the decoded memory ids are unchanged`);
      assert.deepEqual(
        stringsOf(decoded.lexical.termNames),
        termsBefore,
        `${label}the decoded term names are unchanged`,
      );
      assert.deepEqual(
        stringsOf(decoded.lexical.ids),
        documentIdsBefore,
        `${label}the decoded document ids are unchanged`,
      );
    },
  };
}

test('a loaded index that takes new memories and terms leaves the decoded arrays as they were and finds old and new', () => {
  const { lexical, table, assertDecodedUnchanged } = loadedIndex();

  lexical.upsert('mem_new', { terms: new Map([['aardvark', 1]]), length: 1 });
  lexical.upsert(idOf(7), { terms: new Map([['zebra', 1]]), length: 1 });
  lexical.remove(idOf(8));
  lexical.upsert('mem_newer', { terms: new Map([['word9', 1]]), length: 1 });
  table.set('mem_new', meta('mem_new'));

  assertDecodedUnchanged('');
  assert.deepEqual(searchIds(lexical, 'aardvark'), ['mem_new']);
  assert.deepEqual(searchIds(lexical, 'zebra'), [idOf(7)]);
  assert.deepEqual(searchIds(lexical, 'word7'), [], 'the rewritten memory lost its old term');
  assert.deepEqual(searchIds(lexical, 'word8'), [], 'the removed memory is gone');
  assert.deepEqual(searchIds(lexical, 'word9').sort(), [idOf(9), 'mem_newer'].sort());
  assert.deepEqual(searchIds(lexical, `word${DOCUMENTS - 1}`), [idOf(DOCUMENTS - 1)]);
  assert.equal(table.get('mem_new')?.memory_id, 'mem_new');
  assert.equal(table.get(idOf(123))?.memory_id, idOf(123));
  assert.equal(table.size, DOCUMENTS + 1);
});

test('a loaded index whose first change rewrites or removes a loaded memory, with loaded terms only, leaves the decoded arrays as they were', () => {
  for (const first of ['rewrite', 'remove'] as const) {
    const { lexical, table, assertDecodedUnchanged } = loadedIndex();

    if (first === 'rewrite') {
      lexical.upsert(idOf(7), { terms: new Map([['word9', 1]]), length: 1 });
      table.set(idOf(7), meta(idOf(7), { pinned: true }));
    } else {
      lexical.remove(idOf(7));
      table.delete(idOf(7));
    }

    assertDecodedUnchanged(`${first}: `);
    assert.deepEqual(searchIds(lexical, 'word7'), [], `${first}: the memory's old term no longer finds it`);
    assert.deepEqual(
      searchIds(lexical, 'word9').sort(),
      (first === 'rewrite' ? [idOf(7), idOf(9)] : [idOf(9)]).sort(),
      first,
    );
    assert.equal(table.get(idOf(7))?.pinned, first === 'rewrite' ? true : undefined, first);
    assert.equal(table.size, first === 'rewrite' ? DOCUMENTS : DOCUMENTS - 1, first);
  }
});
