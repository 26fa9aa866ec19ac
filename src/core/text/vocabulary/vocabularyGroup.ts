/**
 * One line of a vocabulary list as the bridges it makes (issue 30): the unit a check keeps or
 * removes. Lists are written one group a line in three forms:
 *
 * - abbreviation: "db = database" or "auth = authentication, authorization";
 * - category: "cache, caching : redis, memcached" (a category's names, then its members);
 * - equivalent: "deploy, release, ship" (every member finds every other).
 */

export type VocabularyBridgeKind = 'abbreviation' | 'category' | 'member' | 'equivalent';

export interface VocabularyGroup {
  /** The line as written, prefixed by its kind ("abbreviation: ts = typescript"): how a check names it. */
  id: string;
  /** Each bridge the line makes: from a phrase, to another, of a kind. */
  bridges: Array<[string[], string[], VocabularyBridgeKind]>;
}

/** The three kinds of list, each a text of one group a line. */
export interface VocabularyLists {
  abbreviations: string;
  categories: string;
  equivalents: string;
}

/** A phrase as its lowercase words. */
export function phraseWords(phrase: string): string[] {
  return phrase
    .toLowerCase()
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** "short = long, long": each short form and long form, both ways. */
export function abbreviationGroups(text: string): VocabularyGroup[] {
  return lines(text).map((line) => {
    const [short, longForms] = line.split('=');
    const bridges: VocabularyGroup['bridges'] = [];
    // Each phrase split once, each bridge its own copy of the words: a fresh process builds the
    // vocabulary at its first query, in code not yet compiled, where splitting every phrase again
    // for every partner was most of the build (issue 31).
    const longs = longForms.split(',').map(phraseWords);
    for (const alias of short.split(',').map(phraseWords))
      for (const long of longs) {
        bridges.push([alias.slice(), long.slice(), 'abbreviation']);
        bridges.push([long.slice(), alias.slice(), 'abbreviation']);
      }
    return { id: `abbreviation: ${line}`, bridges };
  });
}

/** "name, name : member, member": a name finds each member ('member'), a member each name ('category'). */
export function categoryGroups(text: string): VocabularyGroup[] {
  return lines(text).map((line) => {
    const [names, members] = line.split(' : ');
    const bridges: VocabularyGroup['bridges'] = [];
    // Split once, copied per bridge, as abbreviationGroups.
    const memberWords = members.split(',').map(phraseWords);
    for (const name of names.split(',').map(phraseWords))
      for (const member of memberWords) {
        bridges.push([name.slice(), member.slice(), 'member']);
        bridges.push([member.slice(), name.slice(), 'category']);
      }
    return { id: `category: ${line}`, bridges };
  });
}

/** "a, b, c": every member finds every other. */
export function equivalentGroups(text: string): VocabularyGroup[] {
  return lines(text).map((line) => {
    const phrases = line.split(',').map(phraseWords);
    const bridges: VocabularyGroup['bridges'] = [];
    for (const from of phrases) for (const to of phrases) bridges.push([from, to, 'equivalent']);
    return { id: `equivalent: ${line}`, bridges };
  });
}

/** Every group of the three lists. */
export function listGroups(lists: VocabularyLists): VocabularyGroup[] {
  return [
    ...abbreviationGroups(lists.abbreviations),
    ...categoryGroups(lists.categories),
    ...equivalentGroups(lists.equivalents),
  ];
}
