import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../../src/core/text/analyzer.ts';
import { tokenizeDetailed } from '../../../src/core/text/tokenizer.ts';

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
