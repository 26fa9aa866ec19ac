import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LexicalIndex } from '../../src/stores/common/lexicalIndex.ts';
import {
  decodeSnapshot,
  encodeSnapshot,
  type IndexSnapshot,
  SNAPSHOT_FORMAT_VERSION,
  SnapshotFormatError,
} from '../../src/stores/sqlite/indexSnapshotFormat.ts';
import type { MemoryMeta } from '../../src/stores/sqlite/memoryMeta.ts';
import { memoryMeta } from '../support/memoryMeta.ts';
import { NumberedStrings, stringsOf } from '../../src/stores/common/stringList.ts';

const AT = 1_767_225_600_000;
const meta = (overrides: Partial<MemoryMeta>): MemoryMeta =>
  memoryMeta('mem_1', { time_ms: AT, last_accessed_ms: AT, created_ms: AT, ...overrides });

function snapshot(): IndexSnapshot {
  const lexical = new LexicalIndex();
  lexical.upsert('mem_1', {
    terms: new Map([
      ['build', 1],
      ['cach', 2.5],
    ]),
    length: 4,
  });
  lexical.upsert('mem_ü', {
    terms: new Map([
      ['naïve', 1],
      ['build', 1],
    ]),
    length: 2,
  });
  return {
    stamp: {
      storeId: 'store-1',
      userId: 'alice',
      seq: 42,
      schemaVersion: 3,
      analyzerVersion: 1,
      bm25: { k1: 0.9, b: 0.4 },
    },
    metas: [
      meta({
        entities: ['Redis', 'café'],
        tags: ['infra'],
        pinned: true,
        project_id: 'proj',
        source_session: 'sess_1',
        conversation: 'session:sess_1',
        question: true,
        importance: 0.9,
        access_count: 3,
        decay_factor: 0.8125,
        declared_project: 'home assistant',
        anchored: true,
      }),
      meta({
        memory_id: 'mem_ü',
        deleted: true,
        superseded: true,
        tags: ['infra', 'emoji 🦄', 'lone \ud800 surrogate'],
        confidence: 0.25,
        conversation: 'thread_id:fil ü \ud800',
        declared_project: 'projet ü \ud800',
        decay_factor: 0.1 + 0.2,
        time_ms: Number.NaN,
      }),
    ],
    lexical: lexical.exportDocuments(),
    vectors: [
      {
        model: 'embed-small',
        dims: 160,
        ids: ['mem_1', 'mem_ü'],
        codes: Uint32Array.from({ length: 16 }, (_, word) => (word * 2654435761) >>> 0),
      },
    ],
  };
}

test('a snapshot decodes to exactly what was encoded: every meta field (turn and ranking facts too), null, unicode and unpaired surrogates included', () => {
  const original = snapshot();
  const decoded = decodeSnapshot(encodeSnapshot(original));
  assert.deepEqual(decoded.stamp, original.stamp);
  assert.deepEqual(
    stringsOf(decoded.metas.ids).map((_, row) => decoded.metas.meta(row)),
    original.metas,
  );
  assert.deepEqual(stringsOf(decoded.metas.ids), ['mem_1', 'mem_ü']);
  // Read in place from the file's string table, not made as 230,000 strings at 100,000 memories.
  for (const list of [decoded.metas.ids, decoded.lexical.termNames, decoded.lexical.ids])
    assert.ok(list instanceof NumberedStrings);
  assert.deepEqual([...decoded.metas.idOrder], [0, 1]);
  assert.deepEqual(stringsOf(decoded.lexical.termNames), original.lexical.termNames);
  assert.deepEqual(stringsOf(decoded.lexical.ids), original.lexical.ids);
  for (const key of ['idOrder', 'lengths', 'postingSizes', 'postingDocuments', 'postingTfs'] as const) {
    assert.deepEqual([...decoded.lexical[key]], [...original.lexical[key]], key);
  }
  assert.deepEqual(
    decoded.vectors.map((vectors) => ({ ...vectors, codes: [...vectors.codes] })),
    original.vectors.map((vectors) => ({ ...vectors, codes: [...vectors.codes] })),
  );
});

test('a damaged, cut or foreign file is refused with the reason, never decoded', () => {
  const bytes = encodeSnapshot(snapshot());
  const flipped = Buffer.from(bytes);
  flipped[flipped.length - 3] ^= 0xff;
  const rejections: Array<[string, Buffer, string]> = [
    ['a flipped byte in the content', flipped, 'corrupt'],
    ['a file cut short', bytes.subarray(0, bytes.length - 16), 'corrupt'],
    ['a file cut inside its header', bytes.subarray(0, 20), 'corrupt'],
    ['another kind of file', Buffer.from('SQLite format 3\u0000 and more bytes'), 'not-a-snapshot'],
    ['an empty file', Buffer.alloc(0), 'not-a-snapshot'],
    [
      'another format version',
      Buffer.from(
        bytes.toString('latin1').replace(`"formatVersion":${SNAPSHOT_FORMAT_VERSION}`, '"formatVersion":9'),
        'latin1',
      ),
      'format-version',
    ],
  ];
  for (const [name, candidate, reason] of rejections) {
    assert.throws(
      () => decodeSnapshot(candidate),
      (error: unknown) =>
        error instanceof SnapshotFormatError && error.reason === reason && error.code === 'INDEX_SNAPSHOT_INVALID',
      name,
    );
  }
});

test('strings that all fit one byte are written one byte each and decode exactly; documents that are not the memories in order keep their own ids', () => {
  const lexical = new LexicalIndex();
  lexical.upsert('mem_b', { terms: new Map([['café', 1]]), length: 1 });
  lexical.upsert('mem_a', {
    terms: new Map([
      ['naïve', 2],
      ['\u00ff\u0000', 1],
    ]),
    length: 3,
  });
  const original: IndexSnapshot = {
    ...snapshot(),
    metas: [
      meta({ memory_id: 'mem_a', tags: ['crème'], pinned: true }),
      meta({ memory_id: 'mem_b', entities: ['Zoë'] }),
      meta({ memory_id: 'mem_gone', deleted: true }),
    ],
    lexical: lexical.exportDocuments(),
    vectors: [],
  };
  const bytes = encodeSnapshot(original);
  assert.ok(bytes.toString('latin1').includes('"name":"characters","kind":"latin1"'));
  const decoded = decodeSnapshot(bytes);
  assert.deepEqual(
    stringsOf(decoded.metas.ids).map((_, row) => decoded.metas.meta(row)),
    original.metas,
  );
  assert.deepEqual(stringsOf(decoded.lexical.termNames), original.lexical.termNames);
  assert.deepEqual(stringsOf(decoded.lexical.ids), ['mem_b', 'mem_a']);
  assert.deepEqual([...decoded.lexical.idOrder], [1, 0]);
  assert.deepEqual([decoded.metas.pinned(0), decoded.metas.pinned(1)], [true, false]);
  assert.deepEqual(decoded.metas.tags(0), ['crème']);
  const restored = LexicalIndex.fromDocuments(decoded.lexical);
  assert.deepEqual(
    restored.search([{ term: 'naïve', weight: 1 }], 5).map((hit) => hit.memory_id),
    ['mem_a'],
  );
  // Wider characters (the main fixture's emoji and lone surrogate) are written in UTF-16.
  assert.ok(encodeSnapshot(snapshot()).toString('latin1').includes('"name":"characters","kind":"utf16"'));
});
