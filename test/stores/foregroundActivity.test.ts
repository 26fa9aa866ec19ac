import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ForegroundActivity } from '../../src/stores/sqlite/foregroundActivity.ts';

/** A request held open until the test lets it finish. */
function heldRequest(): { request: Promise<void>; finish: () => void } {
  let finish = (): void => undefined;
  const request = new Promise<void>((resolve) => (finish = resolve));
  return { request, finish };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('background work waits for a gap between requests (a persisted index save, issue 35)', () => {
  it('runs at once when no request came', async () => {
    const activity = new ForegroundActivity({ idleGapMs: 20, maxWaitMs: 5_000 });
    const started = performance.now();
    await activity.untilIdle();
    assert.ok(performance.now() - started < 200, 'no request was ever served: nothing to wait for');
  });

  it('waits while a request is under way, then for the idle gap after it ends', async () => {
    const activity = new ForegroundActivity({ idleGapMs: 40, maxWaitMs: 5_000 });
    const { request, finish } = heldRequest();
    const tracked = activity.track(request);
    let idle = false;
    const waiting = activity.untilIdle().then(() => (idle = true));
    await sleep(120);
    assert.equal(idle, false, 'a request under way holds background work back');
    finish();
    await tracked;
    const endedAt = performance.now();
    await waiting;
    assert.ok(performance.now() - endedAt >= 35, 'background work waits the idle gap after the last request');
  });

  it('a stream of requests that never pauses holds it back at most the longest wait', async () => {
    const activity = new ForegroundActivity({ idleGapMs: 50, maxWaitMs: 200 });
    let streaming = true;
    const stream = (async () => {
      while (streaming) await activity.track(sleep(5));
    })();
    const started = performance.now();
    await activity.untilIdle();
    const waited = performance.now() - started;
    streaming = false;
    await stream;
    assert.ok(waited >= 190, `it waited for a gap first (${waited.toFixed(0)} ms)`);
    assert.ok(waited < 1_000, `and no longer than the bound (${waited.toFixed(0)} ms)`);
  });

  it("passes the request's result and failure through unchanged", async () => {
    const activity = new ForegroundActivity();
    assert.equal(await activity.track(Promise.resolve(7)), 7);
    await assert.rejects(activity.track(Promise.reject(new Error('refused'))), /refused/);
    // A failed request still ends: background work is not held back by it.
    const started = performance.now();
    await sleep(25);
    await activity.untilIdle();
    assert.ok(performance.now() - started < 500);
  });
});
