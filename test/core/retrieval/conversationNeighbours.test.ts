import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { conversationKey } from '../../../src/core/retrieval/conversationKey.ts';
import type { Clock } from '../../../src/core/ports/clock.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

/** Neighbour expansion joins turns of one marked conversation only, never memories merely stored close in time. */
describe('neighbours only within a conversation', () => {
  let tick = 0;
  // One second per reading: everything below is stored within minutes, well inside the old two-hour window.
  const clock: Clock = { now: () => new Date(Date.parse('2026-03-01T09:00:00Z') + 1000 * tick++) };
  let test: TestCore;

  before(async () => {
    test = await createTestCore({ clock });
  });
  after(() => test.cleanup());

  const store = (user: string, content: string, extra: Record<string, unknown> = {}) =>
    test.core
      .storeMemory({ user_id: user, content, memory_category: 'episodic', memory_subtype: 'conversation', ...extra })
      .then((stored) => stored.memory_id);

  it('keys a memory by session id, else by the conversation metadata, and only conversation turns', () => {
    const base = { memory_subtype: 'conversation' as const, source_session: null as string | null, metadata: {} };
    assert.equal(conversationKey({ ...base, source_session: 's1' }), 'session:s1');
    assert.equal(conversationKey({ ...base, metadata: { conversation_id: 'c9' } }), 'conversation_id:c9');
    assert.equal(conversationKey({ ...base, metadata: { session: 3 } }), 'session:3');
    assert.equal(conversationKey(base), null, 'an unmarked turn has no conversation');
    assert.equal(
      conversationKey({ ...base, memory_subtype: 'decision' as const, source_session: 's1' }),
      null,
      'only dialog turns are joined',
    );
  });

  it('lends score to the next turn of the same conversation, which says so', async () => {
    const question = await store('talk', 'Alice said, "Where did you go hiking last weekend?"', {
      metadata: { conversation_id: 'c1' },
    });
    const answer = await store('talk', 'Bob said, "Up the ridge trail near the lake."', {
      metadata: { conversation_id: 'c1' },
    });
    const result = await test.core.recall(
      { user_id: 'talk', query: 'where did Alice go hiking', min_similarity: 0 },
      { logAccess: false },
    );
    const ids = result.memories.map((memory) => memory.memory_id);
    assert.equal(ids[0], question);
    assert.ok(ids.includes(answer), 'the answer turn is reached through its neighbour');
    const lent = result.memories.find((memory) => memory.memory_id === answer)!;
    assert.ok(lent.score_breakdown.signals.includes('neighbour'));
    assert.match(lent.why_matched, /next to a matching memory of the same conversation/);
  });

  it("lends the next turn 0.7 of its seed's text score, and the turn after that 0.7 squared", async () => {
    const user = 'decay';
    const seed = await store(user, 'Gus said, "We finally repainted the boathouse."', {
      metadata: { conversation_id: 'd1' },
    });
    const next = await store(user, 'Hana said, "Nice, I bet the colour suits it."', {
      metadata: { conversation_id: 'd1' },
    });
    const after = await store(user, 'Gus said, "A dark green, like the pines."', {
      metadata: { conversation_id: 'd1' },
    });
    const result = await test.core.recall(
      { user_id: user, query: 'boathouse repainted', min_similarity: 0 },
      { logAccess: false },
    );
    const text = (id: string): number =>
      result.memories.find((memory) => memory.memory_id === id)!.score_breakdown.text_match;
    assert.ok(Math.abs(text(next) - 0.7 * text(seed)) < 0.002, `one step: ${text(next)} vs 0.7 x ${text(seed)}`);
    assert.ok(Math.abs(text(after) - 0.49 * text(seed)) < 0.002, `two steps: ${text(after)} vs 0.49 x ${text(seed)}`);
  });

  it('gives the reply to a question nearly all of its score, and the turn before it the plain decay', async () => {
    const user = 'reply';
    const before = await store(user, 'Ida said, "I was out all day."', { metadata: { conversation_id: 'r1' } });
    const question = await store(user, 'Jo said, "Which trail did you hike at the lake?"', {
      metadata: { conversation_id: 'r1' },
    });
    const reply = await store(user, 'Ida said, "The north ridge, it took four hours."', {
      metadata: { conversation_id: 'r1' },
    });
    const result = await test.core.recall(
      { user_id: user, query: 'which trail at the lake', min_similarity: 0 },
      { logAccess: false },
    );
    const text = (id: string): number =>
      result.memories.find((memory) => memory.memory_id === id)!.score_breakdown.text_match;
    assert.deepEqual(
      result.memories.slice(0, 2).map((memory) => memory.memory_id),
      [question, reply],
      'the question first on its own words, its reply right after',
    );
    assert.ok(Math.abs(text(reply) - 0.96 * text(question)) < 0.002, `reply: ${text(reply)} vs ${text(question)}`);
    assert.ok(Math.abs(text(before) - 0.7 * text(question)) < 0.002, `before: ${text(before)} vs ${text(question)}`);
  });

  it('does not join turns of different conversations stored one after another', async () => {
    await store('two', 'Alice said, "Where did you go hiking last weekend?"', { metadata: { conversation_id: 'a' } });
    const other = await store('two', 'Carol said, "The quarterly numbers look fine."', {
      metadata: { conversation_id: 'b' },
    });
    const result = await test.core.recall(
      { user_id: 'two', query: 'hiking weekend', min_similarity: 0 },
      { logAccess: false },
    );
    assert.ok(!result.memories.some((memory) => memory.memory_id === other));
  });

  it('never treats memories an agent stored close in time as one conversation', async () => {
    const user = 'agent';
    const decision = await test.core.storeMemory({
      user_id: user,
      content: 'Decision: pull requests need one approving review.',
      memory_category: 'episodic',
      memory_subtype: 'decision',
    });
    const unrelated = [];
    for (const content of [
      'The build cache lives in .turbo.',
      'Staging deploys on every merge to main.',
      'Use tabs in Makefiles.',
    ]) {
      unrelated.push(
        (
          await test.core.storeMemory({
            user_id: user,
            content,
            memory_category: 'semantic',
            memory_subtype: 'project',
          })
        ).memory_id,
      );
    }
    // Even unmarked conversation-subtype memories stay apart.
    unrelated.push(await store(user, 'Dan said, "Lunch at noon?"'));
    const result = await test.core.recall(
      { user_id: user, query: 'pull requests', min_similarity: 0 },
      { logAccess: false },
    );
    assert.deepEqual(
      result.memories.map((memory) => memory.memory_id),
      [decision.memory_id],
    );
    assert.ok(!result.memories.some((memory) => memory.score_breakdown.signals.includes('neighbour')));
  });

  it('drops a neighbour whose lent score stays under the floor', async () => {
    const user = 'weak';
    // The seed covers a third of the query: a neighbour gets at most 0.7 of that, under the floor.
    await store(user, 'Eve said, "The garden looks great."', { source_session: undefined, session_id: 'w1' });
    const next = await store(user, 'Finn said, "Thanks, it took all spring."', { session_id: 'w1' });
    const loose = await test.core.recall(
      { user_id: user, query: 'garden zebra quantum', min_similarity: 0 },
      { logAccess: false },
    );
    assert.ok(
      loose.memories.some((memory) => memory.memory_id === next),
      'the neighbour is a candidate',
    );
    const floored = await test.core.recall({ user_id: user, query: 'garden zebra quantum' }, { logAccess: false });
    assert.ok(!floored.memories.some((memory) => memory.memory_id === next));
  });
});
