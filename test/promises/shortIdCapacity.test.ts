import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { ShortIdRegistry } from '../../src/mcp/shortIds.ts';

/**
 * docs/mcp.md, "Short ids": the server remembers the last 50,000 short ids it showed. Filled to
 * exactly that, every one still resolves; one more forgets the oldest and only it.
 */
const CAPACITY = 50_000;
const fullId = (n: number): string => `mem_${n.toString(16).padStart(8, '0')}${'0'.repeat(24)}`;

describe('the server keeps the last 50,000 short ids it showed', () => {
  it('50,000 shown ids all resolve; the 50,001st forgets the oldest and only it', () => {
    const registry = new ShortIdRegistry();
    const shown = Array.from({ length: CAPACITY }, (_, n) => registry.shorten('u', fullId(n)));
    assert.equal(shown[0], 'mem_00000000', 'each id is shown by its first 8 digits');
    shown.forEach((short, n) => assert.equal(registry.resolve('u', short, 'memory_id'), fullId(n)));
    const next = registry.shorten('u', fullId(CAPACITY));
    assert.equal(registry.resolve('u', next, 'memory_id'), fullId(CAPACITY));
    assert.throws(
      () => registry.resolve('u', shown[0]!, 'memory_id'),
      (error: unknown) => error instanceof MemoryError && error.code === 'MEMORY_NOT_FOUND',
    );
    // Resolving reads only: the second-oldest is still there, and so is every later one.
    for (let n = 1; n <= CAPACITY; n++)
      assert.equal(registry.resolve('u', n === CAPACITY ? next : shown[n]!, 'memory_id'), fullId(n));
  });

  it('showing an id again makes it the newest: it outlives ids shown once after it', () => {
    const registry = new ShortIdRegistry();
    for (let n = 0; n < CAPACITY; n++) registry.shorten('u', fullId(n));
    registry.shorten('u', fullId(0));
    registry.shorten('u', fullId(CAPACITY));
    assert.equal(registry.resolve('u', 'mem_00000000', 'memory_id'), fullId(0));
    assert.throws(() => registry.resolve('u', 'mem_00000001', 'memory_id'), MemoryError);
  });
});
