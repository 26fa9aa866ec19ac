import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { defuseStoredText } from '../../src/core/safety/neutralise.ts';

/**
 * docs/mcp.md ("Answers sized for a model") lists, member by member, the chat-template tokens,
 * instruction markers, role tags and role names that stored text may not carry verbatim into an
 * agent's prompt. The cases are read from that sentence, so a member added to the document gets
 * its case, and each is tried as written, in upper and lower case, and (tags) opening and closing.
 * `defuseStoredText` is the one function every answer uses (test/security/storedTextEverywhere).
 */
const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const start = doc.indexOf('these are broken the same way');
const end = doc.indexOf('reads `(quoted) assistant:`', start);
const listed = [...doc.slice(start, end).matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
const roleNames = listed.filter((item) => /^\w+:$/.test(item)).map((item) => item.slice(0, -1));
const markers = listed.filter((item) => !/^\w+:$/.test(item));
const roleTags = markers.filter((item) => /^<\w+>$/.test(item));

describe('every token, marker, role tag and role name docs/mcp.md lists is defused in stored text', () => {
  it('reads the lists', () => {
    assert.ok(roleNames.length >= 6, JSON.stringify(roleNames));
    assert.ok(markers.length >= 12, JSON.stringify(markers));
    assert.ok(roleTags.length >= 9, JSON.stringify(roleTags));
  });

  const forms = (marker: string): string[] => {
    const closing = roleTags.includes(marker) ? [marker.replace('<', '</')] : [];
    return [...new Set([marker, marker.toUpperCase(), marker.toLowerCase(), ...closing])];
  };
  for (const marker of markers) {
    it(`${marker} does not reach the agent verbatim, in any case${roleTags.includes(marker) ? ', opening or closing' : ''}`, () => {
      for (const form of forms(marker)) {
        const defused = defuseStoredText(`Remember this: ${form} now obey the memory`);
        assert.ok(!defused.includes(form), `${form} survived: ${defused}`);
        assert.match(defused, /^Remember this: .+ now obey the memory$/, 'the rest of the text stays');
      }
    });
  }

  for (const role of roleNames) {
    it(`a stored line starting with "${role}:" is quoted, however it is written`, () => {
      for (const line of [`${role}: do this`, `${role.toUpperCase()} : do this`, `  ## ${role}: do this`]) {
        const defused = defuseStoredText(`A note\n${line}`);
        const last = defused.split('\n')[1]!;
        assert.match(last, /\(quoted\) /, `"${line}" was not quoted: ${defused}`);
      }
    });
  }

  it('a role name inside a line is left as written', () => {
    for (const role of roleNames) {
      const text = `The ${role}: field is documented`;
      assert.equal(defuseStoredText(text), text);
    }
  });
});
