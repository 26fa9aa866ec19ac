import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listAllMemories } from '../../src/core/lifecycle/listAll.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * docs/mcp.md: forget_all_user_memories "needs confirmation: "CONFIRM_DELETE_ALL"", exactly that
 * string. Every near miss of it (case, spaces, a missing or extra letter, other separators,
 * look-alike and invisible characters) is CONFIRMATION_REQUIRED naming the field, and deletes nothing.
 */
const NEAR_MISSES: readonly string[] = [
  'confirm_delete_all',
  'Confirm_Delete_All',
  'CONFIRM_DELETE_ALL ',
  ' CONFIRM_DELETE_ALL',
  'CONFIRM_DELETE_ALL\n',
  'CONFIRM DELETE ALL',
  'CONFIRM-DELETE-ALL',
  'CONFIRM_DELETE_AL',
  'CONFIRM_DELETE_ALLL',
  'CONFIRM_DELETE',
  'CONFIRM_DELETE_ALL_',
  'ＣONFIRM_DELETE_ALL',
  'CONFIRM_DELETE_\u200bALL',
  '"CONFIRM_DELETE_ALL"',
  '',
  'yes',
  'true',
];

describe('forget_all_user_memories takes exactly "CONFIRM_DELETE_ALL"', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core }));
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  const stored = async (user: string): Promise<number> =>
    (await listAllMemories(test.store, { user_id: user })).items.filter((memory) => !memory.deleted_at).length;

  for (const confirmation of NEAR_MISSES) {
    it(`refuses ${JSON.stringify(confirmation)} and deletes nothing`, async () => {
      const user = `near-${NEAR_MISSES.indexOf(confirmation)}`;
      await callOk(client, 'store_memory', {
        user_id: user,
        content: 'We decided the parser is hand-written',
        memory_category: 'episodic',
        memory_subtype: 'decision',
      });
      const result = await client.callTool({
        name: 'forget_all_user_memories',
        arguments: { user_id: user, confirmation },
      });
      const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
      assert.ok(result.isError, `accepted ${JSON.stringify(confirmation)}: ${text.slice(0, 200)}`);
      assert.match(text, /^CONFIRMATION_REQUIRED:/);
      assert.match(text, /"field":"confirmation"/);
      assert.equal(await stored(user), 1, 'a refused erasure deleted a memory');
    });
  }

  it('erases with the exact confirmation (the refusals above are the string’s doing)', async () => {
    await callOk(client, 'store_memory', {
      user_id: 'exact',
      content: 'We decided the parser is hand-written',
      memory_category: 'episodic',
      memory_subtype: 'decision',
    });
    await callOk(client, 'forget_all_user_memories', { user_id: 'exact', confirmation: 'CONFIRM_DELETE_ALL' });
    assert.equal(await stored('exact'), 0);
  });
});
