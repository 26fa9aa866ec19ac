import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { provenanceText, repositoryOriginOf } from '../../../src/core/domain/repositoryOrigin.ts';

const ORIGIN = { path: '.memory/use-pnpm-1a2b3c4d.md', hash: 'h', version: 2, synced_at: '2026-11-01T09:00:00.000Z' };

describe('a repository memory’s origin as recall and the panel name it', () => {
  it('names the file, the short commit and the author', () => {
    const origin = repositoryOriginOf({ repository: { ...ORIGIN, commit: '9f8e7d6c5b4a', author: 'Alice' } });
    assert.ok(origin);
    assert.equal(provenanceText(origin), 'from .memory/use-pnpm-1a2b3c4d.md @9f8e7d6 by Alice');
  });

  it('says when the file is not committed yet', () => {
    assert.equal(
      provenanceText(repositoryOriginOf({ repository: ORIGIN })!),
      'from .memory/use-pnpm-1a2b3c4d.md (not committed)',
    );
  });

  it('reads hand-edited or missing metadata as no origin, never as a half one', () => {
    assert.equal(repositoryOriginOf({}), null);
    assert.equal(repositoryOriginOf({ repository: 'x' }), null);
    assert.equal(repositoryOriginOf({ repository: { ...ORIGIN, version: '2' } }), null);
    assert.equal(repositoryOriginOf({ repository: { ...ORIGIN, path: 3 } }), null);
    // A non-string author is dropped, the rest kept.
    assert.deepEqual(repositoryOriginOf({ repository: { ...ORIGIN, author: 7 } }), ORIGIN);
  });
});
