import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BRIDGE_CREDIT, queryConcepts } from '../../../src/core/retrieval/queryConcepts.ts';
import { alternativeMatch } from '../../../src/core/retrieval/queryCoverage.ts';
import {
  languageClassesForEvaluation,
  languageClassMembers,
} from '../../../src/core/text/vocabulary/languageClassMembers.ts';
import { createTestCore, storeNotes, type TestCore } from '../../support/testCore.ts';

/** The names of the class alternative of a query word (kind 'instance'), and its label. */
const classOf = (query: string, term: string) => {
  const alternative = queryConcepts(query)
    .find((concept) => concept.term === term)
    ?.alternatives.find((candidate) => candidate.kind === 'instance');
  return { label: alternative?.label, names: [...(alternative?.members?.values() ?? [])], alternative };
};

describe('a class of languages bridged to the languages in it', () => {
  it('lists the languages of a Linguist type under the WordNet class named for it', () => {
    for (const name of ['kotlin', 'haskell', 'scala', 'cobol'])
      assert.ok(languageClassMembers('program languag').includes(name), name);
    assert.ok(languageClassMembers('markup languag').includes('html'));
    assert.ok(!languageClassMembers('markup languag').includes('kotlin'), 'markup holds markup languages only');
    assert.ok(languageClassMembers('languag').includes('kotlin') && languageClassMembers('languag').includes('html'));
  });

  it('leaves out names that are English words and types WordNet names no class for', () => {
    for (const word of ['go', 'python', 'java', 'rust', 'ruby', 'apples', 'shell'])
      assert.ok(!languageClassMembers('languag').includes(word), word);
    // Linguist's data and prose types: no WordNet synset "data ..." or "prose ..." is above their names.
    for (const key of ['format', 'data', 'data format', 'prose']) assert.deepEqual(languageClassMembers(key), [], key);
    for (const name of ['yaml', 'json', 'toml', 'markdown'])
      assert.ok(!languageClassMembers('languag').includes(name), name);
  });

  it('gives every word of the class named in the query one alternative any of its languages covers, at its own credit', () => {
    const { label, names, alternative } = classOf('which programming language did we pick', 'program');
    assert.equal(label, 'programming language');
    assert.equal(alternative?.credit, BRIDGE_CREDIT.instance);
    assert.ok(names.includes('kotlin') && names.includes('haskell'));
    assert.ok(classOf('which programming language did we pick', 'languag').names.includes('kotlin'));
    assert.equal(alternativeMatch(alternative!, new Set(['servic', 'kotlin'])), 'programming language ← kotlin');
    assert.equal(alternativeMatch(alternative!, new Set(['servic', 'python'])), null);
    const markup = classOf('what markup language do the docs use', 'languag');
    assert.ok(markup.names.includes('html') && !markup.names.includes('kotlin'), 'the longest class the query names');
    assert.deepEqual(
      classOf('which programming book did we pick', 'program').names,
      [],
      '"programming" alone names no class',
    );
  });

  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    await storeNotes(test, user, [
      'The ingestion service retries a failed batch three times before it alerts.',
      'Kotlin for the ingestion service: coroutines keep the memory footprint low under fan-out.',
      'The team lunch is on Fridays at the Thai place.',
    ]);
  });
  after(() => {
    languageClassesForEvaluation(true);
    return test.cleanup();
  });

  const ask = () =>
    test.core.recall(
      { user_id: user, query: 'which programming language did we choose for the ingestion service' },
      { logAccess: false },
    );

  it('answers a question that names the class with the memory that names only the language, and says so', async () => {
    const result = await ask();
    assert.match(result.memories[0]?.content ?? '', /Kotlin/);
    assert.match(result.memories[0]?.why_matched ?? '', /language ← kotlin/);
  });

  it('ranks that memory below the one sharing more words without the table (the bridge is what moves it)', async () => {
    languageClassesForEvaluation(false);
    try {
      const result = await ask();
      assert.doesNotMatch(result.memories[0]?.content ?? '', /Kotlin/);
    } finally {
      languageClassesForEvaluation(true);
    }
  });
});
