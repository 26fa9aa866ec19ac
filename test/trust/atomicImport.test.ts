import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { EXPORT_FORMAT } from '../../src/core/portability/exportFormat.ts';
import { importMemories } from '../../src/core/portability/importMemories.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

const memory = (id: string, content: string) => ({
  memory_id: id,
  content,
  memory_category: 'semantic',
  memory_subtype: 'project',
  created_at: '2026-01-01T00:00:00Z',
});
const session = {
  session_id: 'sess_imported',
  max_tokens: 8000,
  total_tokens: 5,
  eviction_policy: 'hybrid',
  next_sequence: 2,
  created_at: '2026-01-01T00:00:00Z',
  last_activity: '2026-01-01T00:00:00Z',
};
const item = {
  item_id: 'wmi_1',
  session_id: 'sess_imported',
  content_type: 'message',
  content: 'We use pnpm in this repo',
  token_count: 6,
  sequence_num: 1,
  pinned: false,
  relevance_score: 1,
  created_at: '2026-01-01T00:00:00Z',
  last_accessed: '2026-01-01T00:00:00Z',
  metadata: {},
};
const file = (patch: { session?: Record<string, unknown>; item?: Record<string, unknown> }) => ({
  format: EXPORT_FORMAT,
  format_version: 1,
  memories: [memory('mem_a', 'The API runs on port 8080'), memory('mem_b', 'Deploys go through ArgoCD')],
  sessions: [{ ...session, ...patch.session }],
  working_items: [{ ...item, ...patch.item }],
});

describe('import is all or nothing, with session records validated like tool input (issue 13.2)', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core, adminTools: true }));
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  async function nothingImported(user: string): Promise<void> {
    assert.equal((await listAllMemories(test.store, { user_id: user })).items.length, 0, 'no memory was committed');
    assert.deepEqual(await test.core.listSessions(user), [], 'no session was committed');
  }

  it('refuses bad session and item fields, naming them, with nothing written', async () => {
    const cases: Array<[string, Parameters<typeof file>[0], RegExp]> = [
      ['negative token count', { item: { token_count: -1e9 } }, /working_items\[0\]\.token_count/],
      ['negative budget', { session: { max_tokens: -5 } }, /sessions\[0\]\.max_tokens/],
      ['markup as content type', { item: { content_type: '<img src=x>' } }, /working_items\[0\]\.content_type/],
      ['garbage time', { session: { created_at: 'garbage' } }, /sessions\[0\]\.created_at/],
      ['garbage item time', { item: { created_at: 'garbage' } }, /working_items\[0\]\.created_at/],
      ['items over the budget', { session: { max_tokens: 3 } }, /max_tokens/],
      ['item of no session', { item: { session_id: 'sess_elsewhere' } }, /working_items\[0\]\.session_id/],
    ];
    for (const [name, patch, field] of cases) {
      const user = `user-${name.replaceAll(' ', '-')}`;
      const error = await callError(client, 'import_memories', { user_id: user, data: file(patch) });
      assert.equal(error.code, 'INVALID_INPUT', name);
      assert.match(error.message, field, name);
      await nothingImported(user);
    }
  });

  it('imports a good file whole, recounting the tokens that make the budget', async () => {
    const result = await callOk<{
      memories_imported: number;
      sessions_imported: number;
      working_items_imported: number;
    }>(client, 'import_memories', { user_id: 'good', data: file({ item: { token_count: 1 } }) });
    assert.deepEqual([result.memories_imported, result.sessions_imported, result.working_items_imported], [2, 1, 1]);
    const [stored] = await test.core.listSessions('good');
    const items = await test.store.listWorkingItems(stored!.session_id);
    assert.equal(
      items[0]!.token_count,
      test.deps.tokens.count('We use pnpm in this repo'),
      "cl100k count of the content, not the file's 1",
    );
    assert.equal(stored!.total_tokens, items[0]!.token_count);
    assert.notEqual(items[0]!.token_count, 1);
  });

  it('undoes what it wrote when the store fails part-way', async () => {
    const failing: MemoryStore = Object.create(test.store, {
      commitWorking: {
        value: async () => {
          throw new MemoryError('STORAGE_FULL', 'disk full');
        },
      },
    });
    await assert.rejects(importMemories({ ...test.deps, store: failing }, 'undone', file({})), (error: unknown) =>
      MemoryError.is(error, 'STORAGE_FULL'),
    );
    await nothingImported('undone');
  });
});
