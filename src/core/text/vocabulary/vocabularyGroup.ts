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
    for (const alias of short.split(','))
      for (const long of longForms.split(',')) {
        bridges.push([phraseWords(alias), phraseWords(long), 'abbreviation']);
        bridges.push([phraseWords(long), phraseWords(alias), 'abbreviation']);
      }
    return { id: `abbreviation: ${line}`, bridges };
  });
}

/** "name, name : member, member": a name finds each member ('member'), a member each name ('category'). */
export function categoryGroups(text: string): VocabularyGroup[] {
  return lines(text).map((line) => {
    const [names, members] = line.split(' : ');
    const bridges: VocabularyGroup['bridges'] = [];
    for (const name of names.split(','))
      for (const member of members.split(',')) {
        bridges.push([phraseWords(name), phraseWords(member), 'member']);
        bridges.push([phraseWords(member), phraseWords(name), 'category']);
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
