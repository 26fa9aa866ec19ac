import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isInstructionLike } from '../../src/core/safety/injectionPhrasing.ts';

/**
 * Lists SECURITY.md and README state member by member, each member tested from the list as written:
 * the instruction-like phrasings that put a warning on a context block, and the error codes a tool
 * answers with (both ways: a code the README lists exists, a code the core has is documented).
 */

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The phrasings of SECURITY.md's "Context injection" row: its quoted and backticked items. */
function documentedPhrasings(): string[] {
  const row = read('SECURITY.md')
    .split('\n')
    .find((line) => line.startsWith('| Context injection'));
  assert.ok(row, 'SECURITY.md lost its "Context injection" row');
  const start = row.indexOf('instruction-like phrasing:');
  const end = row.indexOf('(`src/core/safety/injectionPhrasing.ts`)', start);
  assert.ok(start !== -1 && end !== -1, 'the row no longer lists the phrasings');
  const list = row.slice(start, end);
  return [...list.matchAll(/"([^"]+)"|`([^`]+)`/g)].map((match) => (match[1] ?? match[2]!).replace(/\\\|/g, '|'));
}

describe('every instruction-like phrasing SECURITY.md lists puts the warning on its block', () => {
  const phrasings = documentedPhrasings();
  it('reads the list', () => assert.ok(phrasings.length >= 9, JSON.stringify(phrasings)));
  for (const phrasing of phrasings) {
    it(`flags a memory holding ${JSON.stringify(phrasing)}`, () => {
      assert.ok(isInstructionLike(phrasing), `${phrasing} alone`);
      assert.ok(
        isInstructionLike(`Notes from the wiki page.\n${phrasing}\nThen carry on with the build.`),
        `${phrasing} in a memory`,
      );
      assert.ok(isInstructionLike(phrasing.toLowerCase()) || /[[<#]/.test(phrasing), `${phrasing} in lower case`);
    });
  }
});

describe('the error codes README "Errors" lists are exactly the core’s', () => {
  it('every code listed exists, and every code of the core is listed', () => {
    const readme = read('docs/mcp.md');
    const start = readme.search(/^#+ Errors$/m);
    const paragraph = readme.slice(start, readme.indexOf('\n\n', readme.indexOf('Tool errors start with', start)));
    const documented = new Set([...paragraph.matchAll(/`([A-Z][A-Z_]+)`/g)].map((match) => match[1]!));
    // Comments inside the union may hold any punctuation, a ';' included.
    const source = read('src/core/domain/errors.ts').replace(/\/\*[\s\S]*?\*\//g, '');
    const union = source.slice(
      source.indexOf('export type MemoryErrorCode'),
      source.indexOf(';', source.indexOf('export type MemoryErrorCode')),
    );
    const codes = new Set([...union.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1]!));
    assert.ok(codes.size >= 15, [...codes].join());
    assert.deepEqual(
      [...codes].filter((code) => !documented.has(code)),
      [],
      'codes the core has that README does not list',
    );
    assert.deepEqual(
      [...documented].filter((code) => !codes.has(code)),
      [],
      'codes README lists that the core does not have',
    );
  });
});
