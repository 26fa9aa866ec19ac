import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  enclosingSymbol,
  noteFrom,
  notePrefill,
  quotedCodeOf,
  selectionContent,
} from '../../../src/core/editor/selectionMemory.ts';

const SELECTED = {
  file: 'src/invoice.ts',
  start: 13,
  end: 15,
  language: 'typescript',
  code: 'export function computeTotal(net: number): number {\n  return Math.round(net * 1.2);\n}',
};

describe('what Remember Selection stores', () => {
  it('leads with the note, then where the code is and the code', () => {
    const content = selectionContent('computeTotal must round VAT to cents', SELECTED);
    assert.equal(content.split('\n')[0], 'computeTotal must round VAT to cents');
    assert.match(content, /\n\nFrom src\/invoice\.ts:13-15 \(typescript\):\nexport function computeTotal/);
  });

  it('without a note it is the code alone, as before', () => {
    assert.ok(selectionContent(null, SELECTED).startsWith('From src/invoice.ts:13-15 (typescript):\n'));
  });

  it('the note: one line, trimmed; the prefill accepted as it is gives the symbol name; Escape or blank gives none', () => {
    assert.equal(notePrefill('computeTotal'), 'computeTotal: ');
    assert.equal(notePrefill(null), '');
    assert.equal(noteFrom('computeTotal: '), 'computeTotal');
    assert.equal(noteFrom('  computeTotal:  must round\nVAT  '), 'computeTotal: must round VAT');
    assert.equal(noteFrom('   '), null);
    assert.equal(noteFrom(undefined), null);
  });

  it('the enclosing symbol is the innermost declaration holding the whole selection', () => {
    const symbols = [
      { name: 'Invoice', kind: 'class', start: 1, end: 40 },
      { name: 'computeTotal', kind: 'method', start: 12, end: 18 },
      { name: 'format', kind: 'method', start: 20, end: 25 },
    ];
    assert.equal(enclosingSymbol(symbols, 13, 15)?.name, 'computeTotal');
    assert.equal(enclosingSymbol(symbols, 13, 21)?.name, 'Invoice');
    assert.equal(enclosingSymbol(symbols, 41, 42), null);
  });

  it('the quoted code is read back from the memory, with or without a note', () => {
    for (const note of ['computeTotal must round VAT', null]) {
      assert.deepEqual(quotedCodeOf(selectionContent(note, SELECTED)), SELECTED);
    }
    assert.equal(quotedCodeOf('We use pnpm, not npm.'), null);
  });
});
