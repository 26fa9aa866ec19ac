import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { EXPORT_FORMAT } from '../../../src/core/portability/exportFormat.ts';
import { exportMemories } from '../../../src/core/portability/exportMemories.ts';
import { importMemories } from '../../../src/core/portability/importMemories.ts';
import { validateExport } from '../../../src/core/portability/exportFileReader.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

describe('export and import', () => {
  let source: TestCore;
  let target: TestCore;
  before(async () => {
    source = await createTestCore();
    target = await createTestCore();
  });
  after(async () => {
    await source.cleanup();
    await target.cleanup();
  });

  it('restores a user into an empty store with ids, links and supersession intact, and is idempotent', async () => {
    const old = await source.core.storeMemory({
      user_id: 'u',
      content: 'CI runs on Jenkins',
      memory_category: 'semantic',
      memory_subtype: 'environment',
    });
    const fresh = await source.core.storeMemory({
      user_id: 'u',
      content: 'CI moved to GitHub Actions',
      memory_category: 'semantic',
      memory_subtype: 'environment',
      supersedes: old.memory_id,
    });
    const data = JSON.parse(JSON.stringify(await exportMemories(source.deps, 'u')));
    assert.equal(data.format, EXPORT_FORMAT);
    assert.equal(data.counts.memories, 2);

    const first = await importMemories(target.deps, 'u', data);
    assert.equal(first.memories_imported, 2);
    const newId = first.remapped_ids[fresh.memory_id] ?? fresh.memory_id;
    const oldId = first.remapped_ids[old.memory_id] ?? old.memory_id;
    const restored = await target.core.getMemory('u', newId);
    assert.equal(restored.supersedes, oldId);
    assert.equal((await target.core.getMemory('u', oldId)).superseded_by, newId);
    const second = await importMemories(target.deps, 'u', data);
    assert.deepEqual([second.memories_imported, second.memories_skipped], [0, 2]);
  });

  it('redacts secrets in imported content and names the invalid field', async () => {
    const key = ['gh', 'p_', 'A'.repeat(36)].join('');
    const data = {
      format: EXPORT_FORMAT,
      format_version: 1,
      memories: [
        {
          memory_id: 'mem_abc',
          content: `token ${key}`,
          memory_category: 'semantic',
          memory_subtype: 'project',
          created_at: '2026-01-01T00:00:00Z',
        },
      ],
    };
    const result = await importMemories(target.deps, 'v', data);
    assert.deepEqual(result.redactions, [{ kind: 'github-token', count: 1 }]);
    assert.throws(
      () => validateExport({ ...data, memories: [{ ...data.memories[0], importance: 7 }] }),
      (error: unknown) => MemoryError.is(error, 'INVALID_INPUT') && error.message.includes('memories[0].importance'),
    );
  });
});
