import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryCategory } from '../../src/core/domain/taxonomy.ts';
import type { MemoryFilter } from '../../src/core/ports/memoryStore.ts';
import { LexicalIndex } from '../../src/stores/common/lexicalIndex.ts';
import { decodeSnapshot, encodeSnapshot } from '../../src/stores/sqlite/indexSnapshotFormat.ts';
import { plainMeta } from '../../src/stores/sqlite/metaRow.ts';
import { compileMemoryFilter } from '../../src/stores/sqlite/memoryFilter.ts';
import type { MemoryMeta } from '../../src/stores/sqlite/memoryMeta.ts';
import { MetaTable } from '../../src/stores/sqlite/metaTable.ts';
import { seededRandom } from '../contract/fixtures.ts';

const LAYERS = ['user', 'project', 'agent', 'session'];
const SCOPES = ['alice', 'repo-1', 'copilot', 'é-scope'];
const PROJECTS = [null, 'p1', 'p2'];
const CATEGORIES: MemoryCategory[] = ['semantic', 'episodic', 'procedural', 'preference'];
const SUBTYPES = ['project', 'conversation', 'decision', 'how_to'];
const SOURCES = ['explicit', 'extracted', 'imported'];
const WORDS = ['Redis', 'Postgres', 'team 1', 'team 2', 'ops', 'infra', 'ü'];
const SESSIONS = [null, 's1', 's2'];

function randomMeta(random: () => number, memory_id: string): MemoryMeta {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const some = (): string[] => WORDS.filter(() => random() < 0.2);
  const time = Math.floor(random() * 1_000) * 3_600_000;
  return {
    memory_id,
    layer: pick(LAYERS),
    scope_id: pick(SCOPES),
    project_id: pick(PROJECTS),
    category: pick(CATEGORIES),
    subtype: pick(SUBTYPES),
    entities: some(),
    tags: some(),
    time_ms: time,
    confidence: Math.round(random() * 100) / 100,
    pinned: random() < 0.2,
    source_type: pick(SOURCES),
    source_session: pick(SESSIONS),
    conversation: random() < 0.3 ? `session:${pick(SCOPES)}` : null,
    question: random() < 0.3,
    deleted: random() < 0.2,
    superseded: random() < 0.15,
    importance: random(),
    decay_factor: random(),
    access_count: Math.floor(random() * 10),
    last_accessed_ms: time + 1_000,
    created_ms: time - 1_000,
    declared_project: random() < 0.2 ? pick(['p1', 'new-project']) : null,
    anchored: random() < 0.1,
  };
}

function randomFilter(random: () => number): MemoryFilter {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const subset = <T>(values: readonly T[]): T[] => values.filter(() => random() < 0.4);
  const maybe = (): boolean => random() < 0.3;
  const filter: MemoryFilter = { user_id: 'alice' };
  if (maybe()) filter.after = new Date(Math.floor(random() * 1_000) * 3_600_000).toISOString();
  if (maybe()) filter.before = new Date(Math.floor(random() * 1_000) * 3_600_000).toISOString();
  if (maybe()) filter.state = pick(['live', 'deleted', 'all'] as const);
  if (maybe()) filter.include_superseded = random() < 0.5;
  if (maybe()) filter.project_id = pick(['p1', 'p2', 'p3']);
  if (maybe())
    filter.scopes = subset(LAYERS).map((layer) => ({
      layer: layer as NonNullable<MemoryFilter['scopes']>[number]['layer'],
      scope_id: pick(SCOPES),
    }));
  if (maybe()) filter.categories = subset(CATEGORIES);
  if (maybe()) filter.subtypes = subset(SUBTYPES);
  if (maybe()) filter.source_types = subset(SOURCES);
  if (maybe()) filter.entities = subset(WORDS);
  if (maybe()) filter.tags = subset(WORDS);
  if (maybe()) filter.min_confidence = random();
  if (maybe()) filter.pinned = random() < 0.5;
  return filter;
}

test('filters over the column table admit exactly what they admit over plain metas, after loads, writes, forgets and returns', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const random = seededRandom(seed);
    const stored = Array.from({ length: 150 }, (_, row) => randomMeta(random, `mem_${seed}_${row}`));
    const bytes = encodeSnapshot({
      stamp: { storeId: 's', userId: 'alice', seq: 1, schemaVersion: 1, analyzerVersion: 1, bm25: { k1: 0.9, b: 0.4 } },
      metas: stored,
      lexical: new LexicalIndex().exportDocuments(),
      vectors: [],
    });
    const table = new MetaTable(decodeSnapshot(bytes).metas);
    const mirror = new Map(stored.map((meta) => [meta.memory_id, meta]));
    const known = stored.map((meta) => meta.memory_id);
    for (let change = 0; change < 200; change++) {
      const roll = random();
      if (roll < 0.3) {
        const id = `mem_${seed}_new_${change}`;
        known.push(id);
        const meta = randomMeta(random, id);
        table.set(id, meta);
        mirror.set(id, meta);
      } else if (roll < 0.8) {
        const id = known[Math.floor(random() * known.length)]!;
        const meta = randomMeta(random, id);
        table.set(id, meta);
        mirror.set(id, meta);
      } else {
        const id = known[Math.floor(random() * known.length)]!;
        table.delete(id);
        mirror.delete(id);
      }
    }
    assert.equal(table.size, mirror.size);
    for (const id of known) assert.deepEqual(table.get(id) && plainMeta(table.get(id)!), mirror.get(id), id);
    for (let round = 0; round < 40; round++) {
      const filter = randomFilter(random);
      const accept = compileMemoryFilter(filter);
      const expected = [...mirror.values()].filter(accept).map((meta) => meta.memory_id);
      const expectedSet = new Set(expected);
      const byValues = [...table.values()].filter(accept).map((meta) => meta.memory_id);
      assert.deepEqual(new Set(byValues), expectedSet, JSON.stringify(filter));
      assert.equal(byValues.length, expected.length);
      const acceptsRow = table.rowTest(accept);
      const byRows = known.filter((id) => {
        const row = table.rowOf(id);
        return row !== undefined && acceptsRow(row);
      });
      assert.deepEqual(new Set(byRows), expectedSet, JSON.stringify(filter));
    }
  }
});
