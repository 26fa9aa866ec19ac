import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../../src/core/text/analyzer.ts';
import { normalizeText, tokenizeDetailed } from '../../../src/core/text/tokenizer.ts';

test('splits camelCase and keeps the whole identifier', () => {
  assert.deepEqual(tokenize('getUserById'), ['getuserbyid', 'get', 'user', 'by', 'id']);
  assert.deepEqual(tokenize('HTTPServer'), ['httpserver', 'http', 'server']);
});

test('splits snake_case, kebab-case, dotted names and paths', () => {
  assert.deepEqual(tokenize('max_retry_count'), ['max_retry_count', 'max', 'retry', 'count']);
  assert.deepEqual(tokenize('vue-router'), ['vue-router', 'vue', 'router']);
  assert.deepEqual(tokenize('src/api/users.py'), ['src/api/users.py', 'src', 'api', 'users', 'py']);
  assert.deepEqual(tokenize('os.path.join'), ['os.path.join', 'os', 'path', 'join']);
});

test('keeps version numbers whole and drops sentence punctuation', () => {
  assert.deepEqual(tokenize('Upgrade to v1.2.3 and node 24.1.'), ['upgrade', 'to', 'v1.2.3', 'and', 'node', '24.1']);
  assert.deepEqual(tokenize('Wait... what -- really?'), ['wait', 'what', 'really']);
});

test('keeps language names made of symbols', () => {
  assert.deepEqual(tokenize('C++ and C# code'), ['c++', 'and', 'c#', 'code']);
});

test('normalises unicode: NFKC, diacritics, case, apostrophes', () => {
  assert.deepEqual(tokenize('Café ＡＰＩ naïve'), ['cafe', 'api', 'naive']);
  assert.deepEqual(tokenize('Caroline’s dog doesn’t bark'), ['caroline', 'dog', 'doesnt', 'bark']);
  assert.deepEqual(tokenize('日本語 テキスト'), ['日本語', 'テキスト']);
});

test('labels token kinds so analyzers stem parts but not wholes', () => {
  assert.deepEqual(
    tokenizeDetailed('parseJSON now').map((token) => token.kind),
    ['whole', 'part', 'part', 'word'],
  );
});

/** The normalisation as every text went through it before ASCII text took the short way. */
function normalizedEveryStep(text: string): string {
  return text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/(?<=\p{L})'s\b/gu, '')
    .replace(/(?<=\p{L})'(?=\p{L})/gu, '');
}

test('normalises ASCII and other text exactly as every step applied to it does', () => {
  const alphabet = [
    ...'abcXYZ019 _-.\'`"s\n\t',
    "'s",
    '`s ',
    'é',
    'e\u0301',
    '\u2019',
    '\u2018',
    '\u02bc',
    'ﬁ',
    'Ｆ',
    '日',
    '🚀',
    '\u0300',
  ];
  let seed = 5;
  const next = (bound: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % bound;
  };
  const texts = ["don't", "Bob's car", 'it`s', "''s", "x'", "rock'n'roll", 'plain text only', ''];
  for (let sample = 0; sample < 3_000; sample++) {
    let text = '';
    const length = 1 + next(30);
    // Half the samples are ASCII only, which take the short way.
    const pool = sample % 2 === 0 ? alphabet.slice(0, 20) : alphabet;
    for (let index = 0; index < length; index++) text += pool[next(pool.length)];
    texts.push(text);
  }
  for (const text of texts) assert.equal(normalizeText(text), normalizedEveryStep(text), JSON.stringify(text));
});

// Plain lower-case words and numbers skip the identifier rules (issue 31); everything around that
// shortcut must still go through them.
test('gives plain words and numbers as one word and still splits what the rules split', () => {
  const words = (text: string) => tokenizeDetailed(text).map((token) => `${token.kind}:${token.text}`);
  assert.deepEqual(words('deploy 42 abc123 x getUserById c++ v1.2.3 snake_case end. 3d x86_64 Ünïcode -- a--b'), [
    'word:deploy',
    'word:42',
    'word:abc123',
    'word:x',
    'whole:getuserbyid',
    'part:get',
    'part:user',
    'part:by',
    'part:id',
    'word:c++',
    'word:v1.2.3',
    'whole:snake_case',
    'part:snake',
    'part:case',
    'word:end',
    'word:3d',
    'whole:x86_64',
    'part:x86',
    'part:64',
    'word:unicode',
    'word:a',
    'word:b',
  ]);
  let seed = 23;
  const next = (below: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % below;
  for (let round = 0; round < 2_000; round++) {
    const word = Array.from({ length: 1 + next(12) }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[next(36)]).join('');
    assert.deepEqual(words(`(${word}),`), [`word:${word}`]);
  }
});

// Chunks with no connector and no capital after their first letter skip the splits (issue 31):
// capitalised words stay words, and a capital inside a chunk still splits it.
test('capitalised words are one word; an inner capital still splits', () => {
  const words = (text: string) => tokenizeDetailed(text).map((token) => `${token.kind}:${token.text}`);
  assert.deepEqual(words('Deployed ABC Über İstanbul HTTPServer iPhone getURLFor'), [
    'word:deployed',
    'word:abc',
    'word:uber',
    'word:istanbul',
    'whole:httpserver',
    'part:http',
    'part:server',
    'whole:iphone',
    'part:i',
    'part:phone',
    'whole:geturlfor',
    'part:get',
    'part:url',
    'part:for',
  ]);
});
