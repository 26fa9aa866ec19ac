import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkPromises } from '../../scripts/check-promises.mjs';

/**
 * The promise index checker (scripts/check-promises.mjs) on small fixture projects: the good one
 * passes, and each way an index can rot is reported by name.
 */

const GOOD = {
  'README.md': '# Project\n\nA bound server refuses other users. <!-- promise:bound-user -->\n',
  'SECURITY.md': '| Threat | Mitigation | Tests |\n|---|---|---|\n| Theft | token | x <!-- promise:sec-token --> |\n',
  'RELIABILITY.md': '# Reliability\n',
  'docs/promises.md': [
    '# Promises',
    '',
    '- `bound-user` README.md › The fml command — a bound server refuses other users.',
    '  - `test/binding.test.ts` › "refuses bob"',
    '- `sec-token` SECURITY.md › Threats — only the exact token is accepted.',
    '  - `test/token.test.ts` › "vendor prefix ghr_ is redacted as github-token"',
    '  - `test/binding.test.ts` › "a suite"',
    '',
  ].join('\n'),
  'test/binding.test.ts': "describe('a suite', () => {\n  it(\n    'refuses bob',\n    () => {},\n  );\n});\n",
  'test/token.test.ts': 'for (const x of []) test(`vendor prefix ${x.prefix} is redacted as ${x.kind}`, () => {});\n',
};

const roots: string[] = [];
function project(changes: Record<string, string | null> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'fml-promises-'));
  roots.push(root);
  for (const [path, text] of Object.entries({ ...GOOD, ...changes })) {
    if (text === null) continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
const index = (replace: (text: string) => string) => ({ 'docs/promises.md': replace(GOOD['docs/promises.md']) });

describe('the promise index checker', () => {
  after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('passes an index where every marked promise names existing tests, template titles included', () => {
    assert.deepEqual(checkPromises(project()), []);
  });

  it('fails a promise that names no test', () => {
    const problems = checkPromises(
      project(index((text) => text.replace('  - `test/binding.test.ts` › "refuses bob"\n', ''))),
    );
    assert.deepEqual(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /bound-user names no test/);
  });

  it('fails a test file that does not exist and a test name not in its file', () => {
    const problems = checkPromises(
      project(
        index((text) =>
          text.replace('test/token.test.ts', 'test/gone.test.ts').replace('"refuses bob"', '"refuses carol"'),
        ),
      ),
    );
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.ok(problems.some((problem) => /no test file test\/gone\.test\.ts/.test(problem)));
    assert.ok(problems.some((problem) => /no test "refuses carol" in test\/binding\.test\.ts/.test(problem)));
  });

  it('fails a name that matches a title only in part', () => {
    const problems = checkPromises(project(index((text) => text.replace('"refuses bob"', '"refuses"'))));
    assert.equal(problems.length, 1, problems.join('\n'));
  });

  it('fails a promise marked in a document but missing from the index', () => {
    const problems = checkPromises(
      project({ 'RELIABILITY.md': '# R\n\nNothing is lost. <!-- promise:rel-nothing-lost -->\n' }),
    );
    assert.deepEqual(problems, ['RELIABILITY.md:3: promise rel-nothing-lost is marked but not in docs/promises.md']);
  });

  it('fails an index entry whose document holds no marker for it, and a marker moved to another document', () => {
    assert.match(
      checkPromises(project({ 'README.md': '# Project\n' })).join('\n'),
      /bound-user has no <!-- promise:bound-user --> marker in README\.md/,
    );
    const moved = checkPromises(
      project({ 'README.md': '# Project\n', 'RELIABILITY.md': 'x <!-- promise:bound-user -->\n' }),
    );
    assert.equal(moved.length, 2, moved.join('\n'));
  });

  it('fails duplicate ids, and lines that look like entries but are not of the format', () => {
    const duplicate = checkPromises(
      project(
        index(
          (text) =>
            `${text}- \`sec-token\` SECURITY.md › Threats — again.\n  - \`test/binding.test.ts\` › "refuses bob"\n`,
        ),
      ),
    );
    assert.ok(
      duplicate.some((problem) => /sec-token is indexed twice/.test(problem)),
      duplicate.join('\n'),
    );
    const malformed = checkPromises(project(index((text) => text.replace('› "refuses bob"', '- refuses bob'))));
    assert.ok(
      malformed.some((problem) => /not an entry or test line/.test(problem)),
      malformed.join('\n'),
    );
  });
});
