import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeAccessLogRow } from '../../src/stores/common/accessLogRow.ts';

describe('decodeAccessLogRow', () => {
  it('reads a full row as the entry it stores', () => {
    const row = {
      access_id: 'acc_1',
      memory_id: 'mem_1',
      session_id: 'ses_1',
      user_id: 'alex',
      query_text: 'orders db',
      similarity_score: '0.75',
      tool: 'recall_memories',
      accessed_at: '2026-11-25T15:00:00.000Z',
    };
    assert.deepEqual(decodeAccessLogRow(row), { ...row, similarity_score: 0.75 });
  });

  it('reads absent and null optional columns as null', () => {
    const entry = decodeAccessLogRow({
      access_id: 'acc_2',
      memory_id: 'mem_2',
      session_id: null,
      user_id: 'alex',
      tool: 'panel',
      accessed_at: '2026-11-25T15:01:00.000Z',
    });
    assert.equal(entry.session_id, null);
    assert.equal(entry.query_text, null);
    assert.equal(entry.similarity_score, null);
  });

  it('keeps a score of zero', () => {
    assert.equal(
      decodeAccessLogRow({
        access_id: 'a',
        memory_id: 'm',
        user_id: 'u',
        similarity_score: 0,
        tool: 't',
        accessed_at: 'x',
      }).similarity_score,
      0,
    );
  });
});
