import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXPECTATION_MS, OwnChanges } from '../../webview/ownChanges.ts';

test("the panel's own change is consumed once; anyone else's change, a failed action or an old expectation is not swallowed", () => {
  let now = 0;
  const own = new OwnChanges(() => now);
  own.expect(['a', 'b']);
  assert.equal(own.consume(['a', 'c']), false, 'c was changed by someone else');
  assert.equal(own.consume(['a', 'b']), true);
  assert.equal(own.consume(['a']), false, 'consumed once: a later change of a reloads the list');
  const withdraw = own.expect(['d']);
  withdraw();
  assert.equal(own.consume(['d']), false, 'the action failed: no notification was expected');
  own.expect(['e']);
  now += EXPECTATION_MS + 1;
  assert.equal(own.consume(['e']), false, 'an expectation never answered expires');
  assert.equal(own.consume([]), false);
});
