import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { codeTokens, LEGACY_SCHEME, sketchOfTokens } from '../../src/core/anchors/codeFingerprint.ts';
import type { CodeAnchor } from '../../src/core/anchors/anchorModel.ts';
import { recheckAnchors } from '../../src/core/anchors/anchorUpdates.ts';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Issue #28 point 6: the stored sketch of anchored code held an unkeyed 32-bit hash of every token,
 * literals included, so a password in anchored code could be found by hashing guesses against an
 * export. Sketches hold no literals now; version-1 sketches are dropped on export and on migration.
 */
const PASSWORD = 'Tr0ub4dor&3';
const GUESSES = ['password', 'hunter2', 'letmein', PASSWORD, 'correct horse battery staple'];
const LOGIN = `export function connectAdmin(pool: Pool): Client {
  return pool.connect({ user: 'admin', password: '${PASSWORD}', port: 5432 });
}
`;

/** Every per-token hash an attacker could try for a guessed string literal: the 32-bit FNV-1a the sketch used, in each quoting. */
function guessHashes(guess: string): Set<number> {
  return new Set(LEGACY_SCHEME.sketch([`"${guess}"`, `'${guess}'`, `\`${guess}\``], Number.POSITIVE_INFINITY));
}

function sketchesIn(exported: { memories: Array<{ metadata: Record<string, unknown> }> }): number[] {
  return exported.memories.flatMap((memory) =>
    ((memory.metadata.anchors as Array<{ tokens: number[] }> | undefined) ?? []).flatMap((anchor) => anchor.tokens),
  );
}

/** The anchor as a version-1 store kept it: every distinct token hashed, the password too. */
function legacyAnchor(code: string, lines: { start: number; end: number }): CodeAnchor {
  const tokens = LEGACY_SCHEME.tokens(code);
  return {
    path: 'src/db/admin.ts',
    lines,
    fingerprint: LEGACY_SCHEME.fingerprint(tokens),
    tokens: LEGACY_SCHEME.sketch(tokens),
    size: tokens.length,
  };
}

describe('anchored code leaves no guessable literal hashes', () => {
  let root: string;
  let source: TestCore;
  let tick = 0;
  const user = 'dba';
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    const at = new Date(Date.UTC(2026, 0, 1) + ++tick * 1000);
    utimesSync(join(root, path), at, at);
  };

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'fml-literal-hashes-'));
    write('src/db/admin.ts', LOGIN);
    source = await createTestCore({ workspace: nodeWorkspaceFiles(root) });
  });
  afterEach(async () => {
    await source.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('a password literal in anchored code cannot be found by hashing guesses against an export', async () => {
    await source.core.storeMemory({
      user_id: user,
      content: 'The admin connection uses the service account, never a personal login.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      anchors: [{ path: 'src/db/admin.ts', symbol: 'connectAdmin' }],
    });
    // A memory anchored before sketch version 2, as an older store holds it.
    const legacy = legacyAnchor(LOGIN, { start: 1, end: 3 });
    assert.ok(
      legacy.tokens.some((hash) => guessHashes(PASSWORD).has(hash)),
      'the version-1 sketch held the password hash',
    );
    await source.core.storeMemory({
      user_id: user,
      content: 'connectAdmin pins port 5432.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      metadata: { anchors: [legacy] },
    });
    const exported = await source.core.exportMemories(user);
    const page = await source.core.exportPage(user, undefined);
    for (const data of [exported, page]) {
      const hashes = new Set(sketchesIn(data));
      assert.ok(hashes.size > 0, 'the current sketch is exported');
      const found = GUESSES.filter((guess) => [...guessHashes(guess)].some((hash) => hashes.has(hash)));
      assert.deepEqual(found, [], 'no guess matches a hash in the export');
      // Nor do the other literals of the code (the user name, the port): no literal is hashed at all.
      for (const literal of ['"admin"', '5432'])
        assert.ok(!LEGACY_SCHEME.sketch([literal]).some((hash) => hashes.has(hash)), literal);
      assert.ok(!JSON.stringify(data).includes(PASSWORD));
    }
  });

  it('an anchored memory imported from an export still gets a staleness answer, for a literal change too', async () => {
    await source.core.storeMemory({
      user_id: user,
      content: 'The admin connection uses port 5432 on purpose.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      anchors: [{ path: 'src/db/admin.ts', symbol: 'connectAdmin' }],
    });
    await source.core.storeMemory({
      user_id: user,
      content: 'connectAdmin logs in as admin.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      metadata: { anchors: [legacyAnchor(LOGIN, { start: 1, end: 3 })] },
    });
    const exported = await source.core.exportMemories(user);
    const target = await createTestCore({ workspace: nodeWorkspaceFiles(root) });
    try {
      await target.core.importMemories(user, JSON.parse(JSON.stringify(exported)));
      const statuses = async (): Promise<string[]> =>
        (await target.core.recall({ user_id: user, query: 'admin connection port' }, { logAccess: false })).memories
          .flatMap((memory) => memory.anchors ?? [])
          .map((anchor) => anchor.status)
          .sort();
      assert.deepEqual(await statuses(), ['fresh', 'fresh']);
      write('src/db/admin.ts', LOGIN.replace('5432', '6432'));
      assert.deepEqual(await statuses(), ['changed', 'changed']);
    } finally {
      await target.cleanup();
    }
  });

  it('a version-1 anchor is migrated when checked: re-sketched without literals when unchanged, its sketch dropped when not', async () => {
    const checker = source.core.anchors!;
    const at = '2026-02-01T00:00:00.000Z';
    const legacy = legacyAnchor(LOGIN, { start: 1, end: 3 });
    const unchanged = await recheckAnchors([legacy], checker, at);
    assert.equal(unchanged.changed, true, 'the migration is written back');
    assert.equal(unchanged.anchors[0].status, 'fresh');
    assert.deepEqual(
      { ...unchanged.anchors[0], status: undefined, checked_at: undefined, current: undefined },
      {
        ...legacy,
        ...sketchOfTokens(codeTokens(LOGIN)),
        status: undefined,
        checked_at: undefined,
        current: undefined,
      },
    );
    write('src/db/admin.ts', LOGIN.replace(PASSWORD, 'rotated'));
    const changed = await recheckAnchors([legacy], checker, at);
    assert.equal(changed.anchors[0].status, 'changed');
    assert.deepEqual(changed.anchors[0].tokens, [], 'the literal-bearing sketch is dropped');
    assert.equal(changed.anchors[0].fingerprint, legacy.fingerprint, 'the version-1 fingerprint still answers');
  });
});
