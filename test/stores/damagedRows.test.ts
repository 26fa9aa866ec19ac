import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';

/**
 * The SQLite row codec checks every column against the record schema (core/domain/memoryRecord.ts):
 * a row another writer damaged is a typed error naming the field, never a record of the wrong type.
 */
describe('a damaged memory row', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-damaged-rows-'));
  const store = new SqliteMemoryStore({ dataDir, persistedIndexes: false });
  const core = new MemoryCore({ store });
  let db: DatabaseSync;
  let memoryId: string;

  before(async () => {
    await core.open();
    ({ memory_id: memoryId } = await core.storeMemory({
      user_id: 'alex',
      content: 'The orders service uses PostgreSQL 16.',
      memory_category: 'semantic',
      memory_subtype: 'project',
    }));
    // Another writer damages the row, on its own connection as another process would.
    db = new DatabaseSync(join(dataDir, 'memory.db'));
  });
  after(async () => {
    db.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const damage: Array<[string, string, unknown]> = [
    ['layer', 'bogus-layer', 'layer'],
    ['memory_subtype', 'not-a-subtype', 'memory_subtype'],
    ['source_type', 'telepathy', 'source_type'],
    ['entities', '[1, 2]', 'entities'],
    ['metadata', '[]', 'metadata'],
    ['tags', 'not json', 'tags'],
    ['importance', 'high', 'importance'],
  ];
  for (const [column, value, field] of damage) {
    it(`with ${column} = ${JSON.stringify(value)} is reported as PROVIDER_ERROR naming ${column}`, async () => {
      const original = db
        .prepare(`SELECT ${column} AS value FROM long_term_memories WHERE memory_id = ?`)
        .get(memoryId);
      db.prepare(`UPDATE long_term_memories SET ${column} = ? WHERE memory_id = ?`).run(value, memoryId);
      try {
        await assert.rejects(store.getMemories('alex', [memoryId]), (error: unknown) => {
          assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'), String(error));
          assert.deepEqual(error.details, { field });
          return true;
        });
      } finally {
        db.prepare(`UPDATE long_term_memories SET ${column} = ? WHERE memory_id = ?`).run(
          original!.value as string | number,
          memoryId,
        );
      }
      assert.equal((await store.getMemories('alex', [memoryId]))[0]?.memory_id, memoryId);
    });
  }

  // The duplicate search reads candidates without their whole row; a damaged one still fails as a full read does.
  const postgresQuery = { filter: { user_id: 'alex' }, terms: analyzeQuery('PostgreSQL orders'), limit: 5 };
  for (const [column, value] of [
    ['metadata', '[]'],
    ['metadata', 'not json'],
    ['metadata', 42],
    // A TEXT column turns a number into text; a BLOB stays what it is.
    ['content', new Uint8Array([1, 2])],
    ['deleted_at', new Uint8Array([3])],
  ] as const) {
    it(`with ${column} = ${value instanceof Uint8Array ? 'a BLOB' : JSON.stringify(value)} fails a duplicate candidate read as PROVIDER_ERROR naming ${column}`, async () => {
      const original = db
        .prepare(`SELECT ${column} AS value FROM long_term_memories WHERE memory_id = ?`)
        .get(memoryId);
      db.prepare(`UPDATE long_term_memories SET ${column} = ? WHERE memory_id = ?`).run(value, memoryId);
      try {
        await assert.rejects(store.duplicateCandidates(postgresQuery), (error: unknown) => {
          assert.ok(MemoryError.is(error, 'PROVIDER_ERROR'), String(error));
          assert.deepEqual(error.details, { field: column });
          return true;
        });
      } finally {
        db.prepare(`UPDATE long_term_memories SET ${column} = ? WHERE memory_id = ?`).run(
          original!.value as string | number | null,
          memoryId,
        );
      }
      assert.equal((await store.duplicateCandidates(postgresQuery))[0]?.memory_id, memoryId);
    });
  }
});
