import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallLog } from '../../src/mcp/callLog.ts';

describe('CallLog', () => {
  it('keeps the last calls, newest first, with ISO times and rounded durations', () => {
    const log = new CallLog(3);
    assert.deepEqual(log.recent(), []);
    const before = Date.now();
    for (let index = 1; index <= 5; index++)
      log.record({ tool: `t${index}`, ok: index !== 4, ms: index + 0.123456, user_id: 'u' });
    const recent = log.recent();
    assert.deepEqual(
      recent.map((call) => call.tool),
      ['t5', 't4', 't3'],
      'the ring holds the last three',
    );
    assert.equal(recent[0].ms, 5.12);
    assert.ok(Date.parse(recent[0].at!) >= before - 1 && /Z$/.test(recent[0].at!));
    assert.deepEqual(
      log.recent(2).map((call) => call.tool),
      ['t5', 't4'],
    );
  });

  it('lists the recent errors among the calls it holds', () => {
    const log = new CallLog(4);
    log.record({ tool: 'old-error', ok: false, ms: 1, error: { code: 'X', message: 'gone' } });
    for (let index = 0; index < 4; index++)
      log.record({
        tool: index % 2 ? 'fail' : 'pass',
        ok: index % 2 === 0,
        ms: 1,
        ...(index % 2 ? { error: { code: 'INVALID_INPUT', message: `m${index}` } } : {}),
      });
    const errors = log.recentErrors();
    assert.deepEqual(
      errors.map((call) => call.error?.message),
      ['m3', 'm1'],
      'the error pushed out of the ring is not listed',
    );
    assert.deepEqual(
      log.recentErrors(1).map((call) => call.error?.message),
      ['m3'],
    );
  });
});
