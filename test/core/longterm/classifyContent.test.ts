import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyContent, isWorthKeeping } from '../../../src/core/longterm/classifyContent.ts';

/** A small labelled set written for this project (developer phrasing), not taken from any benchmark. */
const LABELLED: Array<[string, string]> = [
  ['We decided to use PostgreSQL over MySQL because of JSONB support', 'episodic.decision'],
  ['The flaky test was fixed by mocking the clock; root cause was a timezone assumption', 'episodic.outcome'],
  ['When the API times out, check the Redis connection first', 'procedural.debugging'],
  ['Use pnpm instead of npm in this repository', 'procedural.tool_usage'],
  ['To release: run the tests, then build, then push the tag', 'procedural.workflow'],
  ["Don't suggest TypeScript enums, the user dislikes them", 'preference.boundaries'],
  ['The user prefers concise answers with code examples first', 'preference.communication'],
  ['Prefer functional style and 2-space indentation', 'preference.style'],
  ["I'm a senior backend engineer working on payments", 'semantic.user'],
  ['CI uses GitHub Actions on ubuntu-latest with Node 24', 'semantic.environment'],
  ['Deployed v2.3 to production yesterday', 'episodic.event'],
  ['Table users has columns id, email and created_at', 'semantic.entity'],
  ['The project uses FastAPI with SQLAlchemy', 'semantic.project'],
];

describe('rule-based classification', () => {
  it('labels the project set correctly', () => {
    const wrong = LABELLED.filter(([content, label]) => {
      const result = classifyContent(content);
      return `${result.memory_category}.${result.memory_subtype}` !== label;
    });
    assert.deepEqual(wrong, []);
  });

  it('scores importance, emphasis and temporality, and extracts entities', () => {
    const emphatic = classifyContent('IMPORTANT: never commit to main directly, always open a PR for src/deploy.sh');
    assert.equal(emphatic.memory_subtype, 'boundaries');
    assert.ok(emphatic.importance >= 0.9);
    assert.ok(emphatic.entities.includes('file:src/deploy.sh'));
    assert.equal(classifyContent('Deployed the fix yesterday').is_temporal, true);
    assert.equal(classifyContent('The gateway uses nginx').is_temporal, false);
    assert.deepEqual(
      { category: classifyContent('zzz qqq').memory_category, rule: classifyContent('zzz qqq').rule },
      { category: 'episodic', rule: 'fallback' },
    );
  });

  it('keeps substantive content and drops acknowledgements', () => {
    assert.equal(isWorthKeeping('ok', 1), false);
    assert.equal(isWorthKeeping('Thanks!', 2), false);
    assert.equal(isWorthKeeping('We decided to keep the cache TTL at five minutes', 11), true);
  });
});
