import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lensTitle } from '../../../src/vscode/anchors/anchorLensText.ts';

/** The CodeLens text above anchored code: how many memories, what they are, and whether the code changed. */
describe('anchor CodeLens text', () => {
  it('names each memory by subtype and opening words, and says when the code changed', () => {
    const title = lensTitle([
      {
        memory_subtype: 'decision',
        content: 'Use   pnpm workspaces for every package in this repository',
        anchor: { status: 'fresh' },
      },
      { memory_subtype: 'outcome', content: 'Fixed the flaky test', anchor: { status: 'changed' } },
    ]);
    assert.equal(
      title,
      '2 memories: decision “Use pnpm workspaces for every p…” · outcome “Fixed the flaky test” — code changed since stored',
    );
  });

  it('one fresh memory reads plainly; past three the rest are counted', () => {
    assert.equal(
      lensTitle([{ memory_subtype: 'pattern', content: 'Retry with backoff', anchor: { status: 'fresh' } }]),
      '1 memory: pattern “Retry with backoff”',
    );
    const many = Array.from({ length: 5 }, (_, index) => ({
      memory_subtype: 'fact',
      content: `note ${index}`,
      anchor: { status: 'moved' as const },
    }));
    assert.equal(lensTitle(many), '5 memories: fact “note 0” · fact “note 1” · fact “note 2” · +2 — moved here');
  });
});
