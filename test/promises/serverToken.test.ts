import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { loadOrCreateToken } from '../../src/runtime/serverToken.ts';

/**
 * docs/cli.md: "The HTTP token is kept in DATA_DIR/http-token (mode 0600) so client configs
 * survive restarts; --rotate-token makes a new one." SECURITY.md: a 256-bit random token.
 */
describe('the HTTP token file', () => {
  const dirs: string[] = [];
  const fresh = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'fml-token-'));
    dirs.push(dir);
    return join(dir, 'data');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is created with 256 random bits, readable by its owner only, and the same after a restart', () => {
    const dataDir = fresh();
    const token = loadOrCreateToken(dataDir);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/, '32 random bytes in base64url');
    const path = join(dataDir, 'http-token');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(readFileSync(path, 'utf8').trim(), token);
    assert.equal(loadOrCreateToken(dataDir), token, 'a restart keeps the token');
    assert.notEqual(loadOrCreateToken(fresh()), token, 'another data directory has its own token');
  });

  it('rotating makes a new token, kept from then on', () => {
    const dataDir = fresh();
    const first = loadOrCreateToken(dataDir);
    const rotated = loadOrCreateToken(dataDir, true);
    assert.notEqual(rotated, first);
    assert.equal(loadOrCreateToken(dataDir), rotated);
    assert.equal(statSync(join(dataDir, 'http-token')).mode & 0o777, 0o600);
  });

  for (const [length, kept] of [
    [32, true],
    [31, false],
  ] as const) {
    it(`a stored token of ${length} characters is ${kept ? 'kept' : 'replaced by a new one'} (at least 32)`, () => {
      const dataDir = fresh();
      loadOrCreateToken(dataDir);
      const path = join(dataDir, 'http-token');
      const stored = 'x'.repeat(length);
      writeFileSync(path, `${stored}\n`);
      chmodSync(path, 0o644);
      const token = loadOrCreateToken(dataDir);
      assert.equal(token === stored, kept);
      if (!kept) {
        assert.match(token, /^[A-Za-z0-9_-]{43}$/);
        assert.equal(statSync(path).mode & 0o777, 0o600, 'the replaced file is owner-only again');
      }
    });
  }
});
