import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { memoryRecordSchema } from '../../src/core/domain/memoryRecord.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../src/core/portability/exportFormat.ts';
import { createTestCore } from '../support/testCore.ts';

/**
 * SECURITY.md, "Secrets in memory content": credentials are redacted before anything is stored,
 * imported memories included. Every text field of an imported memory record carries the credential
 * on its own, one import per field, and neither the store nor any file of the data directory may
 * hold it afterwards. The fields are checked against the record's schema: a text field added to
 * memories fails the first test until it has a case here.
 */

const j = (...parts: string[]): string => parts.join('');
/** A GitLab token (kind gitlab-token): recognised by its prefix alone, in any field. */
const SECRET = j('gl', 'pat-', 'Zq8Lm3Nx7Vb2Kc9Rt4Wy');

/** An exported memory whose only credential is in `field`. */
const TEXT_FIELDS: Record<string, (secret: string) => Record<string, unknown>> = {
  content: (secret) => ({ content: `The CI token is ${secret}` }),
  summary: (secret) => ({ summary: `CI token ${secret}` }),
  entities: (secret) => ({ entities: [`token:${secret}`, secret] }),
  tags: (secret) => ({ tags: [secret] }),
  metadata: (secret) => ({ metadata: { note: `token ${secret}`, nested: [{ value: secret }] } }),
};
/** An export file of one memory whose only credential is the one `withSecret` puts in. */
const exportWith = (withSecret: (secret: string) => Record<string, unknown>) => ({
  format: EXPORT_FORMAT,
  format_version: EXPORT_FORMAT_VERSION,
  memories: [
    {
      memory_id: 'mem_with_secret',
      content: 'The release checklist lives in the wiki.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      created_at: '2026-01-01T00:00:00Z',
      ...withSecret(SECRET),
    },
  ],
});
/** Fields of a memory record that hold no free text: ids, enums, numbers, flags and times. */
const NOT_TEXT = new Set([
  'memory_id',
  'user_id',
  'layer',
  'scope_id',
  'org_id',
  'project_id',
  'memory_category',
  'memory_subtype',
  'event_time',
  'is_temporal',
  'importance',
  'access_count',
  'decay_factor',
  'related_memories',
  'supersedes',
  'superseded_by',
  'source_session',
  'source_type',
  'confidence',
  'pinned',
  'embedding_model',
  'created_at',
  'last_accessed',
  'updated_at',
  'deleted_at',
  'version',
]);

describe('an imported memory holds no credential in any of its text fields', () => {
  it('has a case for every text field of a memory record', () => {
    const unclassified = Object.keys(memoryRecordSchema.shape).filter(
      (field) => !(field in TEXT_FIELDS) && !NOT_TEXT.has(field),
    );
    assert.deepEqual(
      unclassified,
      [],
      'a field of the record is neither a text field with a case nor listed as no text',
    );
  });

  for (const [field, withSecret] of Object.entries(TEXT_FIELDS)) {
    it(`a credential in an imported memory's ${field} is redacted, in the store and on disk`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fml-imported-secrets-'));
      const test = await createTestCore({ dataDir });
      let open = true;
      try {
        const result = await test.core.importMemories('importer', exportWith(withSecret));
        assert.equal(result.memories_imported, 1);
        assert.ok(
          result.redactions.some((redaction) => redaction.kind === 'gitlab-token'),
          `the import reports the redaction: ${JSON.stringify(result.redactions)}`,
        );
        const [memory] = (await listAllMemories(test.store, { user_id: 'importer' })).items;
        assert.ok(memory, 'the memory was imported');
        assert.ok(!JSON.stringify(memory).includes(SECRET), `the stored ${field} holds the credential`);
        assert.ok(
          JSON.stringify(memory).includes('[REDACTED:gitlab-token]'),
          `the stored ${field} says what was removed`,
        );
        await test.core.close();
        open = false;
        for (const entry of readdirSync(test.dataDir, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile()) continue;
          const bytes = readFileSync(join(entry.parentPath, entry.name)).toString('latin1');
          assert.ok(!bytes.includes(SECRET), `${entry.name} holds the credential`);
        }
      } finally {
        if (open) await test.core.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

/**
 * With secretPolicy "refuse" (seed 000 §10) an import is refused, and the error names the field
 * that carried the credential, so the user knows what to clean in the file: each text field alone.
 */
const REFUSED_FIELD: Record<string, string> = {
  content: 'content',
  summary: 'summary',
  entities: 'entities[0]',
  tags: 'tags[0]',
  metadata: 'metadata.note',
};

describe('an import that would store a credential under the refusing policy names the field', () => {
  for (const [field, withSecret] of Object.entries(TEXT_FIELDS)) {
    it(`a credential in ${field} is refused as ${REFUSED_FIELD[field]}, and nothing is stored`, async () => {
      const test = await createTestCore({ config: { secretPolicy: 'refuse' } });
      try {
        await assert.rejects(
          test.core.importMemories('importer', exportWith(withSecret)),
          (error: { code?: string; details?: { field?: string; secret_kinds?: string[] } }) => {
            assert.equal(error.code, 'INVALID_INPUT');
            assert.equal(error.details?.field, REFUSED_FIELD[field]);
            assert.ok(error.details?.secret_kinds?.includes('gitlab-token'), JSON.stringify(error.details));
            return true;
          },
        );
        assert.equal((await listAllMemories(test.store, { user_id: 'importer' })).items.length, 0);
      } finally {
        await test.cleanup();
      }
    });
  }
});

describe("an imported session's config under the refusing policy", () => {
  it('is refused as config.<key>, and nothing is stored', async () => {
    const test = await createTestCore({ config: { secretPolicy: 'refuse' } });
    try {
      await assert.rejects(
        test.core.importMemories('importer', {
          format: EXPORT_FORMAT,
          format_version: EXPORT_FORMAT_VERSION,
          memories: [],
          sessions: [
            {
              session_id: 'sess_with_secret',
              max_tokens: 8000,
              total_tokens: 0,
              eviction_policy: 'hybrid',
              next_sequence: 1,
              config: { note: `deploy with ${SECRET}` },
              created_at: '2026-01-01T00:00:00Z',
              last_activity: '2026-01-01T00:00:00Z',
            },
          ],
          working_items: [],
        }),
        (error: { code?: string; details?: { field?: string } }) => {
          assert.equal(error.code, 'INVALID_INPUT');
          assert.equal(error.details?.field, 'config.note');
          return true;
        },
      );
      assert.equal(await test.store.getSession('sess_with_secret'), null);
    } finally {
      await test.cleanup();
    }
  });
});
