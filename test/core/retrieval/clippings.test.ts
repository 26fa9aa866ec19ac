import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queryConcepts } from '../../../src/core/retrieval/queryConcepts.ts';
import { termOf } from '../../../src/core/text/analyzer.ts';
import { CLIPPINGS } from '../../../src/core/text/vocabulary/clippings.ts';
import { restrictVocabularyForEvaluation } from '../../../src/core/text/vocabulary/softwareVocabulary.ts';
import { createTestCore, storeNotes, type TestCore } from '../../support/testCore.ts';

/** Every "short = word" pair of the generated table. */
const PAIRS: Array<[string, string]> = CLIPPINGS.split('\n').flatMap((line) => {
  const [shorts, word] = line.split(' = ');
  return shorts.split(', ').map((short): [string, string] => [short, word]);
});
const term = (word: string): string => termOf({ text: word, kind: 'word' })!;

describe('clipped words (scripts/build-clippings.mjs)', () => {
  it('holds clippings package names use, and no English word in use or name of a language', () => {
    const table = new Map(PAIRS);
    for (const [short, word] of [
      ['doc', 'documentation'],
      ['config', 'configuration'],
      ['env', 'environment'],
      ['auth', 'authentication'],
      ['impl', 'implementation'],
    ])
      assert.equal(table.get(short), word, short);
    // English words in use ("pass" / password, "term" / terminal) and language codes ("eng" / English).
    for (const short of ['pass', 'term', 'log', 'eng', 'fin', 'pol', 'cat']) assert.ok(!table.has(short), short);
    for (const [short, word] of PAIRS) {
      assert.ok(word.startsWith(short) && word.length >= short.length + 3, `${short} = ${word}`);
      assert.notEqual(term(short), term(word), `${short} and ${word} are one index term already`);
    }
  });

  it('gives each word of the table its clipped forms as alternatives, and each clipped form its word', () => {
    for (const [short, word] of PAIRS) {
      const forWord = queryConcepts(word).find((concept) => concept.term === term(word));
      assert.ok(
        forWord?.alternatives.some(
          (alternative) => alternative.kind === 'abbreviation' && alternative.terms.includes(term(short)),
        ),
        `${word} -> ${short}`,
      );
      const forShort = queryConcepts(short).find((concept) => concept.term === term(short));
      assert.ok(
        forShort?.alternatives.some(
          (alternative) => alternative.kind === 'abbreviation' && alternative.terms.includes(term(word)),
        ),
        `${short} -> ${word}`,
      );
    }
  });

  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    await storeNotes(test, user, [
      'To publish the docs site: run mkdocs build, then push the site folder to the gh-pages branch.',
      'Every service reads its secrets from the environment, never from files in the image.',
      'The team lunch is on Fridays at the Thai place.',
    ]);
  });
  after(() => {
    restrictVocabularyForEvaluation(null);
    return test.cleanup();
  });

  const ask = (query: string) => test.core.recall({ user_id: user, query }, { logAccess: false });

  it('answers a question in full words with the memory that writes the word clipped, and says so', async () => {
    const result = await ask('how do we deploy the documentation');
    assert.match(result.memories[0]?.content ?? '', /docs site/);
    assert.match(result.memories[0]?.why_matched ?? '', /documentation ← doc/);
    const clipped = await ask('which env vars hold the secrets');
    assert.match(clipped.memories[0]?.content ?? '', /from the environment/);
    assert.match(clipped.memories[0]?.why_matched ?? '', /env ← environment/);
  });

  it('finds nothing there without the clippings (the table is what bridges them)', async () => {
    restrictVocabularyForEvaluation((group) => !group.id.startsWith('abbreviation: doc ='));
    try {
      const result = await ask('how do we deploy the documentation');
      assert.ok(!result.memories.some((memory) => /docs site/.test(memory.content)));
    } finally {
      restrictVocabularyForEvaluation(null);
    }
  });
});
