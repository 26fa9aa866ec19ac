import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LensRedelivery } from '../../../src/vscode/anchors/lensRedelivery.ts';

/**
 * VS Code drops a pending CodeLens request when the editor loses focus (lensRedelivery.ts), so a
 * change is announced again until every editor showing a file has asked for its lenses.
 */
describe('CodeLens change redelivery', () => {
  const DELAYS = [100, 200, 400];

  /** Node's mock clock runs a timer set during a tick only on a later tick: advance in steps. */
  function advance(t: { mock: { timers: { tick(ms: number): void } } }, ms: number): void {
    for (let step = 0; step < ms; step += 50) t.mock.timers.tick(50);
  }

  function setup(shown: string[]): { redelivery: LensRedelivery; announced: () => number } {
    let count = 0;
    const redelivery = new LensRedelivery(
      () => count++,
      () => shown,
      DELAYS,
    );
    return { redelivery, announced: () => count };
  }

  it('announces once when every shown editor asks before the first repeat', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { redelivery, announced } = setup(['file:///w/a.ts', 'file:///w/b.ts']);
    redelivery.changed();
    assert.equal(announced(), 1);
    redelivery.asked('file:///w/a.ts');
    redelivery.asked('file:///w/b.ts');
    advance(t, 1_000);
    assert.equal(announced(), 1);
  });

  it('announces again, with backoff, while an editor has not asked (its request was dropped on blur)', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { redelivery, announced } = setup(['file:///w/a.ts']);
    redelivery.changed();
    t.mock.timers.tick(99);
    assert.equal(announced(), 1);
    t.mock.timers.tick(1);
    assert.equal(announced(), 2, 'first repeat after 100 ms');
    t.mock.timers.tick(200);
    assert.equal(announced(), 3, 'second after 200 ms more');
    redelivery.asked('file:///w/a.ts');
    advance(t, 10_000);
    assert.equal(announced(), 3, 'no more once the editor asked');
  });

  it('waits for each editor of a split: only the one that had the focus lost its request', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { redelivery, announced } = setup(['file:///w/a.ts', 'file:///w/a.ts']);
    redelivery.changed();
    redelivery.asked('file:///w/a.ts');
    advance(t, 100);
    assert.equal(announced(), 2, 'one editor of two asked: announced again');
    redelivery.asked('file:///w/a.ts');
    advance(t, 10_000);
    assert.equal(announced(), 2);
  });

  it('spaces repeats by twice the time an editor last took to ask, so they do not keep postponing its request', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { redelivery, announced } = setup(['file:///w/a.ts']);
    redelivery.changed();
    advance(t, 1_500);
    // The last repeat was at 700 ms: the editor took 800 ms after it to ask (VS Code's debounce, slow under load).
    redelivery.asked('file:///w/a.ts');
    assert.equal(announced(), 4, 'announced at 0, then repeated at 100, 300 and 700 ms');
    redelivery.changed();
    advance(t, 1_550);
    assert.equal(announced(), 5, 'no repeat before 2 × 800 ms');
    advance(t, 100);
    assert.equal(announced(), 6);
  });

  it('stops after the last delay when an editor never asks (CodeLens turned off)', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { redelivery, announced } = setup(['file:///w/a.ts']);
    redelivery.changed();
    advance(t, 60_000);
    assert.equal(announced(), 1 + DELAYS.length);
  });

  it('forgets documents no longer shown, and a new change starts the count again', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const shown = ['file:///w/a.ts'];
    const { redelivery, announced } = setup(shown);
    redelivery.changed();
    shown.length = 0;
    advance(t, 60_000);
    assert.equal(announced(), 1, 'the closed editor is not waited for');
    shown.push('file:///w/b.ts');
    redelivery.changed();
    t.mock.timers.tick(100);
    assert.equal(announced(), 3);
    redelivery.dispose();
    advance(t, 60_000);
    assert.equal(announced(), 3, 'nothing after dispose');
  });

  it('announces once with no file shown', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { redelivery, announced } = setup([]);
    redelivery.changed();
    advance(t, 60_000);
    assert.equal(announced(), 1);
  });
});
