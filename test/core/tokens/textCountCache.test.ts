import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { TextCountCache } from '../../../src/core/tokens/textCountCache.ts';
import { TiktokenCounter } from '../../../src/core/tokens/tokenCounter.ts';

describe('TextCountCache', () => {
  it('drops the least recently used text first when over its entry bound', () => {
    const cache = new TextCountCache({ maxEntries: 3, maxChars: 1_000, maxTextChars: 100 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    assert.equal(cache.get('a'), 1, 'a is now the most recent');
    cache.set('d', 4);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.deepEqual(
      ['a', 'c', 'd'].map((text) => cache.get(text)),
      [1, 3, 4],
    );
    assert.equal(cache.size, 3);
  });

  it('keeps the characters held under its bound and never holds an over-long text', () => {
    const cache = new TextCountCache({ maxEntries: 100, maxChars: 25, maxTextChars: 12 });
    cache.set('x'.repeat(13), 5);
    assert.equal(cache.size, 0, 'a text over maxTextChars is not kept');
    for (let index = 0; index < 5; index++) cache.set(`${index}`.repeat(10), index);
    assert.ok(cache.heldChars <= 25, `held ${cache.heldChars}`);
    assert.equal(cache.size, 2);
    assert.equal(cache.get('4'.repeat(10)), 4);
    assert.equal(cache.get('0'.repeat(10)), undefined);
  });

  it('does not count a text twice when it is set again', () => {
    const cache = new TextCountCache({ maxEntries: 10, maxChars: 100, maxTextChars: 100 });
    cache.set('same', 1);
    cache.set('same', 1);
    assert.equal(cache.heldChars, 4);
  });
});

describe('TiktokenCounter with whole-text counts cached', () => {
  it('answers repeated texts exactly, before and after they are cached, and after eviction', () => {
    const reference = new Tiktoken(cl100kBase);
    const counter = new TiktokenCounter();
    const texts = Array.from(
      { length: 300 },
      (_, index) =>
        `<memory id="mem_${index}"> Decision ${index}: use Postgres ${'and JSONB '.repeat(index % 7)}</memory>`,
    );
    for (let round = 0; round < 3; round++) {
      for (const text of texts)
        assert.equal(counter.count(text), reference.encode(text, [], []).length, `round ${round}`);
    }
    const long = 'token '.repeat(20_000);
    assert.equal(
      counter.count(long),
      reference.encode(long, [], []).length,
      'texts over the cache limit are still counted',
    );
    assert.equal(counter.count(long), reference.encode(long, [], []).length, 'and again, uncached');
  });
});
