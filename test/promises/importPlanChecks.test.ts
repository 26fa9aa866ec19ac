// The checks import makes once the file's shape is valid, before anything is written: every
// working item belongs to a session of the file, and a session's recounted items fit its budget
// (an exact fit is allowed). Asserted on the error the user sees and on what the store holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../src/core/portability/exportFormat.ts';
import { importMemories } from '../../src/core/portability/importMemories.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const CONTENT = 'We use pnpm in this repository';
const session = (id: string, maxTokens: number) => ({
  session_id: id,
  max_tokens: maxTokens,
  next_sequence: 1,
  eviction_policy: 'hybrid',
  created_at: '2026-01-01T00:00:00Z',
});
const item = (id: string, sessionId: string) => ({
  item_id: id,
  session_id: sessionId,
  content: CONTENT,
  content_type: 'message',
  sequence_num: 1,
  created_at: '2026-01-01T00:00:00Z',
});
const file = (sessions: unknown[], items: unknown[]) => ({
  format: EXPORT_FORMAT,
  format_version: EXPORT_FORMAT_VERSION,
  memories: [],
  sessions,
  working_items: items,
});

describe('import: items belong to a session of the file and fit its budget', () => {
  let test: TestCore;
  let tokens: number;
  before(async () => {
    test = await createTestCore();
    tokens = test.deps.tokens.count(CONTENT);
  });
  after(() => test.cleanup());

  async function refused(user: string, data: unknown): Promise<MemoryError> {
    const error = await importMemories(test.deps, user, data).then(
      () => assert.fail('the import was accepted'),
      (failure: unknown) => failure,
    );
    assert.ok(MemoryError.is(error, 'INVALID_INPUT'), String(error));
    assert.deepEqual(await test.store.listSessions(user), [], 'nothing was written');
    return error;
  }

  it('refuses an item whose session is not in the file, naming the item', async () => {
    const error = await refused(
      'orphans',
      file([session('sess_a', 8000)], [item('wmi_1', 'sess_a'), item('wmi_2', 'sess_elsewhere')]),
    );
    assert.equal(error.message, 'Not a valid memory export: working_items[1].session_id names no session of the file.');
    assert.deepEqual(error.details, { field: 'working_items[1].session_id' });
  });

  it('refuses a session whose items exceed its max_tokens by one token', async () => {
    const error = await refused(
      'over',
      file(
        [session('sess_ok', 8000), session('sess_over', 2 * tokens - 1)],
        [item('wmi_1', 'sess_ok'), item('wmi_2', 'sess_over'), item('wmi_3', 'sess_over')],
      ),
    );
    assert.equal(
      error.message,
      `Not a valid memory export: sessions[1] holds ${2 * tokens} tokens of working items but its max_tokens is ${2 * tokens - 1}.`,
    );
    assert.deepEqual(error.details, { field: 'sessions[1].max_tokens' });
  });

  it('imports a session whose items fill its budget exactly', async () => {
    const result = await importMemories(
      test.deps,
      'exact',
      file([session('sess_exact', 2 * tokens)], [item('wmi_1', 'sess_exact'), item('wmi_2', 'sess_exact')]),
    );
    assert.equal(result.working_items_imported, 2);
    const [stored] = await test.store.listSessions('exact');
    assert.equal(stored?.total_tokens, 2 * tokens);
    assert.equal(stored?.max_tokens, 2 * tokens);
  });
});
