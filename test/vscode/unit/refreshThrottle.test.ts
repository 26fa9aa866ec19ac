import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { RefreshThrottle } from '../../../src/vscode/status/refreshThrottle.ts';

test('a stream of changes refreshes every delay while it lasts, not only once it ends', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let runs = 0;
    const throttle = new RefreshThrottle(() => runs++, 400);
    // An import announcing progress every 100 ms for 2 s.
    for (let elapsed = 0; elapsed < 2_000; elapsed += 100) {
      throttle.schedule();
      mock.timers.tick(100);
    }
    assert.ok(runs >= 4, `refreshed ${runs} times during 2 s of changes`);
    const during = runs;
    throttle.schedule();
    mock.timers.tick(400);
    assert.equal(runs, during + 1, 'and once after the last change');
    mock.timers.tick(5_000);
    assert.equal(runs, during + 1, 'then nothing until the next change');
    throttle.schedule();
    throttle.dispose();
    mock.timers.tick(1_000);
    assert.equal(runs, during + 1, 'disposed: no refresh');
  } finally {
    mock.timers.reset();
  }
});
