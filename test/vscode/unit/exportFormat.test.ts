import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildExport, parseExport } from '../../../src/vscode/storage/exportFormat.ts';
import { createTestCore } from '../../support/testCore.ts';

test('an export imports back into another store, and importing twice adds nothing', async () => {
  const from = await createTestCore();
  const to = await createTestCore();
  try {
    await from.core.storeMemory({
      user_id: 'a',
      content: 'We deploy with blue-green releases on Fridays',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
      metadata: { tags: ['deploy'] },
      project_id: 'git:github.com/a/b',
    });
    await from.core.storeMemory({
      user_id: 'a',
      content: 'Prefers concise answers',
      memory_category: 'preference',
      memory_subtype: 'communication',
    });
    const { items } = await from.core.listMemories({ filter: { user_id: 'a' }, sort: 'created', offset: 0, limit: 10 });
    const file = JSON.parse(JSON.stringify(buildExport('a', items, new Date('2026-01-01T00:00:00Z'))));
    const inputs = parseExport(file);
    assert.equal(inputs.length, 2);
    const actions: string[] = [];
    for (const round of [1, 2]) {
      for (const input of inputs) {
        const result = await to.core.storeMemory({ ...input, user_id: 'b' });
        actions.push(`${round}:${result.similar_existing?.action ?? 'created'}`);
      }
    }
    assert.deepEqual(actions, ['1:created', '1:created', '2:skipped_duplicate', '2:skipped_duplicate']);
    const imported = await to.core.listMemories({ filter: { user_id: 'b' }, sort: 'created', offset: 0, limit: 10 });
    const deploy = imported.items.find((memory) => memory.content.includes('blue-green'));
    assert.equal(deploy?.project_id, 'git:github.com/a/b');
    assert.deepEqual(deploy?.tags, ['deploy']);
  } finally {
    await from.cleanup();
    await to.cleanup();
  }
});

test('files that are not exports are refused with a clear error', () => {
  assert.throws(() => parseExport({ memories: [] }), { code: 'INVALID_INPUT' });
  assert.throws(() => parseExport(null), { code: 'INVALID_INPUT' });
  assert.throws(
    () =>
      parseExport({
        format: 'firebolt-memory-export',
        version: 1,
        memories: [{ content: 'x', memory_category: 'episodic', memory_subtype: 'style' }],
      }),
    { code: 'INVALID_INPUT' },
  );
});
