/**
 * The Porter2 ("Snowball English") stemmer, written from the published algorithm
 * (snowballstem.org/algorithms/english/stemmer.html), including the Snowball 2.x/3.x
 * revisions (more fixed R1 prefixes, no undoubling of "add", "ebb", "err"). Stemming lets "researching",
 * "researched" and "research" meet in the index without any model.
 * Input must already be lowercase; words of two letters or fewer are returned unchanged.
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);
/** Prefixes whose R1 starts right after them, so "generous" and "general" stay apart. */
const R1_PREFIXES = ['gener', 'commun', 'arsen', 'past', 'univers', 'later', 'emerg', 'organ', 'inter'];
const LI_ENDINGS = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);

const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);

/** Words left alone once step 1a has run. */
const POST_1A_INVARIANTS = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'proceed',
  'exceed',
  'succeed',
]);

/** Step 2 suffixes, longest first so the first match is the longest. */
const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
];

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];

const STEP4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'al',
  'er',
  'ic',
];

/** By character code, not a Set of one-letter strings: stemming a new word asks this some dozens of times. */
function isVowel(word: string, index: number): boolean {
  // Out of range, charCodeAt is NaN: no vowel, as the Set answered for undefined.
  const code = word.charCodeAt(index);
  return code === 97 || code === 101 || code === 105 || code === 111 || code === 117 || code === 121;
}

/** The last letters of a list of suffixes, as a bit per letter a-z: a word ending in no such letter has none of them. */
function lastLetters(suffixes: readonly string[]): number {
  let mask = 0;
  for (const suffix of suffixes) mask |= 1 << (suffix.charCodeAt(suffix.length - 1) - 97);
  return mask;
}

/** Whether the word's last character is one of `mask`'s letters ('Y', a marked consonant, never is). */
function mayEndIn(word: string, mask: number): boolean {
  const letter = word.charCodeAt(word.length - 1) - 97;
  return letter >= 0 && letter < 26 && ((mask >> letter) & 1) === 1;
}

/** Start of the region after the first non-vowel that follows a vowel, from `from` on. */
function regionAfter(word: string, from: number): number {
  for (let i = from + 1; i < word.length; i++) {
    if (!isVowel(word, i) && isVowel(word, i - 1)) return i + 1;
  }
  return word.length;
}

function computeR1(word: string): number {
  for (const prefix of R1_PREFIXES) {
    if (word.startsWith(prefix)) return prefix.length;
  }
  return regionAfter(word, 0);
}

/** A short syllable ends at `end` (exclusive). */
function endsWithShortSyllable(word: string, end: number): boolean {
  if (end === 2) return isVowel(word, 0) && !isVowel(word, 1);
  if (end < 3) return false;
  const last = word[end - 1];
  return (
    !isVowel(word, end - 3) &&
    isVowel(word, end - 2) &&
    !isVowel(word, end - 1) &&
    last !== 'w' &&
    last !== 'x' &&
    last !== 'Y'
  );
}

function containsVowel(word: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(word, i)) return true;
  return false;
}

function markConsonantY(word: string): string {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    out += c === 'y' && (i === 0 || VOWELS.has(out[i - 1])) ? 'Y' : c;
  }
  return out;
}

function step1a(word: string): string {
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ied') || word.endsWith('ies')) return word.length > 4 ? word.slice(0, -2) : word.slice(0, -1);
  if (word.endsWith('us') || word.endsWith('ss')) return word;
  if (word.endsWith('s') && containsVowel(word, word.length - 2)) return word.slice(0, -1);
  return word;
}

const STEP1B_LAST = lastLetters(['eedly', 'eed', 'ingly', 'edly', 'ing', 'ed']);

function step1b(word: string, r1: number): string {
  // Most words end in none of the suffixes' last letters: no suffix is tried then.
  if (!mayEndIn(word, STEP1B_LAST)) return word;
  for (const suffix of ['eedly', 'eed']) {
    if (word.endsWith(suffix)) {
      const stemEnd = word.length - suffix.length;
      return stemEnd >= r1 ? word.slice(0, stemEnd) + 'ee' : word;
    }
  }
  for (const suffix of ['ingly', 'edly', 'ing', 'ed']) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (!containsVowel(stem, stem.length)) return word;
    if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return stem + 'e';
    // A vowel plus a double ("add", "ebb", "err") is the whole word: undoubling would lose it.
    if (DOUBLES.has(stem.slice(-2))) return stem.length === 3 && isVowel(stem, 0) ? stem : stem.slice(0, -1);
    if (r1 >= stem.length && endsWithShortSyllable(stem, stem.length)) return stem + 'e';
    return stem;
  }
  return word;
}

function step1c(word: string): string {
  const last = word[word.length - 1];
  if ((last === 'y' || last === 'Y') && word.length > 2 && !isVowel(word, word.length - 2))
    return word.slice(0, -1) + 'i';
  return word;
}

const STEP2_LAST = lastLetters(STEP2.map(([suffix]) => suffix));

function step2(word: string, r1: number): string {
  if (!mayEndIn(word, STEP2_LAST)) return word;
  for (const [suffix, replacement] of STEP2) {
    if (!word.endsWith(suffix)) continue;
    const stemEnd = word.length - suffix.length;
    if (stemEnd < r1) return word;
    if (suffix === 'ogi' && word[stemEnd - 1] !== 'l') return word;
    if (suffix === 'li' && !LI_ENDINGS.has(word[stemEnd - 1])) return word;
    return word.slice(0, stemEnd) + replacement;
  }
  return word;
}

const STEP3_LAST = lastLetters(STEP3.map(([suffix]) => suffix));

function step3(word: string, r1: number, r2: number): string {
  if (!mayEndIn(word, STEP3_LAST)) return word;
  for (const [suffix, replacement] of STEP3) {
    if (!word.endsWith(suffix)) continue;
    const stemEnd = word.length - suffix.length;
    if (stemEnd < r1) return word;
    if (suffix === 'ative' && stemEnd < r2) return word;
    return word.slice(0, stemEnd) + replacement;
  }
  return word;
}

const STEP4_LAST = lastLetters(STEP4);

function step4(word: string, r2: number): string {
  if (!mayEndIn(word, STEP4_LAST)) return word;
  for (const suffix of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stemEnd = word.length - suffix.length;
    if (stemEnd < r2) return word;
    if (suffix === 'ion' && word[stemEnd - 1] !== 's' && word[stemEnd - 1] !== 't') return word;
    return word.slice(0, stemEnd);
  }
  return word;
}

function step5(word: string, r1: number, r2: number): string {
  const end = word.length - 1;
  if (word[end] === 'e') {
    if (end >= r2 || (end >= r1 && !endsWithShortSyllable(word, end))) return word.slice(0, end);
    return word;
  }
  if (word[end] === 'l' && end >= r2 && word[end - 1] === 'l') return word.slice(0, end);
  return word;
}

/** Words stemmed so far: a store or recall stems the same few thousand words again and again. */
const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;
/** Longer tokens (hashes, run-on identifiers' parts) seldom recur; caching them would only hold memory. */
const MAX_CACHED_WORD = 40;

/** The Porter2 stem of a word; the same word always gives the same stem, so stems are kept once worked out. */
export function stem(input: string): string {
  if (input.length <= 2) return input;
  let stemmed = STEMS.get(input);
  if (stemmed === undefined) {
    stemmed = stemUncached(input);
    if (input.length <= MAX_CACHED_WORD) {
      // Emptied when full, as the token counter's pieces: LRU bookkeeping on every hit costs more than it saves.
      if (STEMS.size >= MAX_STEMS) STEMS.clear();
      STEMS.set(input, stemmed);
    }
  }
  return stemmed;
}

/**
 * The stem without the cache: for words that seldom recur, such as the parts of a query word's
 * splits (compoundWords.ts), which would only push the words a store keeps meeting out of it.
 */
export function stemUncached(input: string): string {
  if (input.length <= 2) return input;
  // The rewrites below only when their characters are there (most words have no apostrophe and no
  // "y"): a fresh process's first queries stem their words in code not yet compiled, where each
  // regular expression and each character-by-character copy costs (issue 31).
  let word = input.includes('\u2019') ? input.replace(/\u2019/g, "'") : input;
  if (word.startsWith("'")) word = word.slice(1);
  const exception = EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;
  if (word.length <= 2) return word;

  if (word.includes('y')) word = markConsonantY(word);
  const r1 = computeR1(word);
  const r2 = regionAfter(word, r1);

  // Step 0: possessives.
  if (word.includes("'"))
    for (const suffix of ["'s'", "'s", "'"]) {
      if (word.endsWith(suffix)) {
        word = word.slice(0, -suffix.length);
        break;
      }
    }
  word = step1a(word);
  if (POST_1A_INVARIANTS.has(word)) return word;
  word = step1b(word, r1);
  word = step1c(word);
  word = step2(word, r1);
  word = step3(word, r1, r2);
  word = step4(word, r2);
  word = step5(word, r1, r2);
  return word.includes('Y') ? word.replace(/Y/g, 'y') : word;
}
