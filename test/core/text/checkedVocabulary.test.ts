import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CANDIDATE_GROUPS } from '../../../bench/vocabulary/candidateGroups.ts';
import { CHECKED_GROUPS } from '../../../src/core/text/vocabulary/checkedGroups.ts';
import {
  abbreviationGroups,
  categoryGroups,
  equivalentGroups,
  listGroups,
} from '../../../src/core/text/vocabulary/vocabularyGroup.ts';

describe('hand-written vocabulary groups (issue 30)', () => {
  it('parses each kind of line into both-way bridges, one group a line', () => {
    const [abbreviation] = abbreviationGroups('auth = authentication, authorization');
    assert.equal(abbreviation.id, 'abbreviation: auth = authentication, authorization');
    assert.deepEqual(abbreviation.bridges, [
      [['auth'], ['authentication'], 'abbreviation'],
      [['authentication'], ['auth'], 'abbreviation'],
      [['auth'], ['authorization'], 'abbreviation'],
      [['authorization'], ['auth'], 'abbreviation'],
    ]);
    const [category] = categoryGroups('test runner : jest, vitest');
    assert.deepEqual(category.bridges, [
      [['test', 'runner'], ['jest'], 'member'],
      [['jest'], ['test', 'runner'], 'category'],
      [['test', 'runner'], ['vitest'], 'member'],
      [['vitest'], ['test', 'runner'], 'category'],
    ]);
    const [equivalent] = equivalentGroups('repo, codebase');
    assert.deepEqual(
      equivalent.bridges.filter(([from, to]) => from.join(' ') !== to.join(' ')),
      [
        [['repo'], ['codebase'], 'equivalent'],
        [['codebase'], ['repo'], 'equivalent'],
      ],
    );
    assert.equal(listGroups({ abbreviations: '\n\n', categories: '', equivalents: 'a, b\n\nc, d\n' }).length, 2);
  });

  it('ships only groups of the checked candidate list, and far fewer than it', () => {
    // A group added by hand to the product without going through bench/vocabularyGroupCheck.ts
    // (which measures the candidates) fails here.
    const candidates = new Set(listGroups(CANDIDATE_GROUPS).map((group) => group.id));
    const shipped = listGroups(CHECKED_GROUPS);
    assert.equal(candidates.size, 299);
    assert.ok(shipped.length > 0 && shipped.length < 20, `${shipped.length} groups shipped`);
    for (const group of shipped) assert.ok(candidates.has(group.id), `${group.id} is not a checked candidate`);
  });
});
