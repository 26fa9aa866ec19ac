import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter, rateLimitOf } from '../../src/http/rateLimiter.ts';

/** Requests let through for one client, one every `stepMs`, from 0 to `untilMs`. */
function admitted(limiter: RateLimiter, stepMs: number, untilMs: number): number[] {
  const times: number[] = [];
  for (let now = 0; now <= untilMs; now += stepMs) if (limiter.take('client', now) === 0) times.push(now);
  return times;
}

describe('--rate-limit N means N (issue 13.13)', () => {
  it('never lets more than N requests through in any 60 seconds, whatever the burst', () => {
    for (const perMinute of [1, 5, 60, 100, 6000]) {
      const { burst } = rateLimitOf(perMinute);
      assert.ok(burst <= perMinute && burst >= 1, `burst ${burst} for ${perMinute}/min`);
      const times = admitted(new RateLimiter(perMinute, perMinute), 10, 180_000);
      // The (perMinute + 1)-th request after any admitted one must come 60 s or more later.
      for (let start = 0; start + perMinute < times.length; start++) {
        assert.ok(
          times[start + perMinute]! - times[start]! >= 60_000,
          `${perMinute + 1} requests within 60 s at ${perMinute}/min`,
        );
      }
      assert.ok(
        times.length >= perMinute * 2,
        `the limit still lets ${perMinute}/min through over three minutes (got ${times.length})`,
      );
    }
  });

  it('lets at most the documented burst through at once', () => {
    assert.deepEqual(rateLimitOf(5), { perMinute: 5, burst: 1 });
    assert.deepEqual(rateLimitOf(100), { perMinute: 100, burst: 10 });
    assert.deepEqual(rateLimitOf(6000), { perMinute: 6000, burst: 600 });
    const limiter = new RateLimiter(5, rateLimitOf(5).burst);
    const atOnce = Array.from({ length: 20 }, () => limiter.take('client', 1_000)).filter((wait) => wait === 0).length;
    assert.equal(atOnce, 1);
  });

  it('says how long to wait until the window has room', () => {
    const limiter = new RateLimiter(2, 2);
    assert.equal(limiter.take('c', 0), 0);
    assert.equal(limiter.take('c', 0), 0);
    const wait = limiter.take('c', 40_000);
    assert.ok(wait >= 20 && wait <= 21, `wait ${wait} s`);
    assert.equal(limiter.take('c', 60_000), 0);
    assert.equal(limiter.take('other', 40_000), 0, 'other clients have their own window');
  });
});
