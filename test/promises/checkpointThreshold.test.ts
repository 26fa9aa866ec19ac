import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * docs/mcp.md, checkpoint_working_memory: "below 6,000 tokens only with force". A session holding
 * exactly 6,000 tokens is checkpointed without force; one holding 5,999 is not, and is with force.
 */

/** A statement of exactly `tokens` cl100k tokens ("Decision" and " deploy" are one token each). */
const statementOf = (tokens: number): string => 'Decision' + ' deploy'.repeat(tokens - 1);

describe('checkpoint_working_memory runs from 6,000 tokens, below that only with force', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(() => test.cleanup());

  /** A session holding two items of the given token counts, and its total as the core reports it. */
  async function sessionHolding(user: string, first: number, second: number): Promise<string> {
    const { session_id } = await test.core.initSession({ user_id: user, config: { max_tokens: 20_000 } });
    for (const tokens of [first, second])
      await test.core.addToWorkingMemory({
        session_id,
        user_id: user,
        content: statementOf(tokens),
        content_type: 'message',
      });
    const state = await test.core.getWorkingMemory({ session_id, user_id: user, token_budget: 20_000 });
    assert.equal(state.total_tokens, first + second, 'the session holds exactly the tokens the case names');
    return session_id;
  }

  it('a session of exactly 6,000 tokens is checkpointed without force', async () => {
    const session_id = await sessionHolding('at-threshold', 3_000, 3_000);
    const result = await test.core.checkpointWorkingMemory({ session_id, user_id: 'at-threshold' });
    assert.equal(result.skipped_reason, undefined, result.skipped_reason);
    assert.equal(result.working_memory_tokens_freed, 6_000);
  });

  it('a session of 5,999 tokens is not checkpointed without force, and is with it', async () => {
    const session_id = await sessionHolding('below-threshold', 3_000, 2_999);
    const skipped = await test.core.checkpointWorkingMemory({ session_id, user_id: 'below-threshold' });
    assert.match(skipped.skipped_reason ?? '', /below the checkpoint threshold of 6000/);
    assert.equal(skipped.working_memory_tokens_freed, 0);
    const forced = await test.core.checkpointWorkingMemory({ session_id, user_id: 'below-threshold', force: true });
    assert.equal(forced.skipped_reason, undefined);
    assert.equal(forced.working_memory_tokens_freed, 5_999);
  });
});
