import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectRetryPauseMs } from '../../src/daemon/daemonLauncher.ts';

describe('how often a window tries to connect to the memory process', () => {
  it('tries every 5 ms for the first 3 s after it spawned the process, whatever the attempt', () => {
    for (const attempt of [0, 1, 4, 5, 30]) {
      assert.equal(connectRetryPauseMs(attempt, 0), 5);
      assert.equal(connectRetryPauseMs(attempt, 2_999), 5);
    }
  });

  it('backs off from 10 ms to 200 ms after that window, and when another window spawned it', () => {
    const backoff = [10, 20, 40, 80, 160, 200, 200, 200];
    assert.deepEqual(
      backoff.map((_, attempt) => connectRetryPauseMs(attempt, null)),
      backoff,
    );
    assert.deepEqual(
      backoff.map((_, attempt) => connectRetryPauseMs(attempt, 3_000)),
      backoff,
    );
  });
});
