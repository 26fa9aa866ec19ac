import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHANGED_CODE_ACTIONS, lensTitle } from '../../../src/vscode/anchors/anchorLensText.ts';
import { COMMANDS } from '../../../src/vscode/commands/commandIds.ts';

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
      '$(warning) 2 memories: decision “Use pnpm workspaces for every p…” · outcome “Fixed the flaky test” — code changed since stored',
    );
  });

  it('a memory stored with a note leads with the note', () => {
    assert.equal(
      lensTitle([
        {
          memory_subtype: 'project',
          content: 'computeTotal must round VAT\n\nFrom src/invoice.ts:13-15 (typescript):\nreturn Math.round(x);',
          anchor: { status: 'changed' },
        },
      ]),
      '$(warning) 1 memory: project “computeTotal must round VAT” — code changed since stored',
    );
  });

  it('changed code offers Review, Update and Forget, each a command hidden from the palette', () => {
    assert.deepEqual(
      CHANGED_CODE_ACTIONS.map((action) => action.title),
      ['Review', 'Update', 'Forget'],
    );
    for (const action of CHANGED_CODE_ACTIONS) assert.equal(COMMANDS[action.command].hidden, true, action.command);
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
