/**
 * Word forms the stemmer cannot join: irregular verbs ("chose" / "choose"), irregular plurals
 * ("indices" / "index") and British / American spellings ("colour" / "color"). Query-side only:
 * a query word is expanded to its other forms, so stored memories need no re-indexing.
 */

/** base, past, past participle (and other forms), space-separated. Common English irregular verbs. */
const IRREGULAR_VERBS = `
arise arose arisen|awake awoke awoken|be was were been|bear bore born borne|beat beaten|become became|begin began begun
bend bent|bet|bind bound|bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought
build built|burn burnt|burst|buy bought|catch caught|choose chose chosen|cling clung|come came|cost|creep crept|cut
deal dealt|dig dug|do did done|draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten
fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden
forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given|go went gone
grind ground|grow grew grown|hang hung|have had|hear heard|hide hid hidden|hit|hold held|hurt|keep kept|kneel knelt
know knew known|lay laid|lead led|lean leant|leap leapt|learn learnt|leave left|lend lent|let|lie lay lain|light lit
lose lost|make made|mean meant|meet met|mistake mistook mistaken|overcome overcame|override overrode overridden
pay paid|prove proven|put|quit|read|rebuild rebuilt|redo redid redone|rerun reran|rewrite rewrote rewritten
ride rode ridden|ring rang rung|rise rose risen|run ran|say said|see saw seen|seek sought|sell sold|send sent|set
shake shook shaken|shed|shine shone|shoot shot|show shown|shrink shrank shrunk|shut|sing sang sung|sink sank sunk
sit sat|sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|spin spun|split|spread|spring sprang sprung
stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk|strike struck|strive strove striven
swear swore sworn|sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|tell told
think thought|throw threw thrown|undergo underwent undergone|understand understood|undo undid undone|upset
wake woke woken|wear wore worn|weave wove woven|weep wept|win won|wind wound|withdraw withdrew withdrawn
write wrote written`;

/** singular plural: plurals the stemmer leaves apart. */
const IRREGULAR_PLURALS = `
analysis analyses|appendix appendices|axis axes|child children|criterion criteria|datum data|foot feet|goose geese
index indices|knife knives|leaf leaves|life lives|man men|matrix matrices|medium media|mouse mice|person people
phenomenon phenomena|schema schemata|self selves|shelf shelves|thesis theses|tooth teeth|vertex vertices|wife wives
woman women|half halves|hypothesis hypotheses|crisis crises|basis bases|diagnosis diagnoses|parenthesis parentheses`;

/** British -> American spelling endings, applied to whole words; the longest match wins. */
const SPELLING_ENDINGS: Array<[string, string]> = [
  ['isation', 'ization'],
  ['isations', 'izations'],
  ['ise', 'ize'],
  ['ised', 'ized'],
  ['ises', 'izes'],
  ['ising', 'izing'],
  ['iser', 'izer'],
  ['isers', 'izers'],
  ['yse', 'yze'],
  ['ysed', 'yzed'],
  ['ysing', 'yzing'],
  ['our', 'or'],
  ['ours', 'ors'],
  ['oured', 'ored'],
  ['ouring', 'oring'],
  ['ourite', 'orite'],
  ['ourites', 'orites'],
  ['tre', 'ter'],
  ['tres', 'ters'],
  ['ogue', 'og'],
  ['ogues', 'ogs'],
  ['elled', 'eled'],
  ['elling', 'eling'],
  ['eller', 'eler'],
  ['amme', 'am'],
  ['ammes', 'ams'],
];
/**
 * SPELLING_ENDINGS as rewrite rules, each ending British to American then back, flattened to
 * from, to, from, to...: otherSpelling tries every rule on every word it is asked about, so the
 * rules are laid out once rather than as fresh pairs per word.
 */
const SPELLING_RULES: readonly string[] = SPELLING_ENDINGS.flatMap(([british, american]) => [
  british,
  american,
  american,
  british,
]);
/** Whole-word spelling pairs whose ending is too common to rewrite by rule ("-ence" / "-ense"). */
const SPELLING_PAIRS = new Map(
  [
    ['licence', 'license'],
    ['licences', 'licenses'],
    ['defence', 'defense'],
    ['offence', 'offense'],
    ['pretence', 'pretense'],
    ['grey', 'gray'],
    ['aluminium', 'aluminum'],
    ['judgement', 'judgment'],
    ['ageing', 'aging'],
  ].flatMap(
    ([a, b]) =>
      [
        [a, b],
        [b, a],
      ] as Array<[string, string]>,
  ),
);
/** Words whose ending only looks British: "our", "four", "hour", "your" are not spellings of "or". */
const NOT_SPELLING_VARIANTS = new Set([
  'our',
  'ours',
  'four',
  'hour',
  'hours',
  'your',
  'yours',
  'pour',
  'tour',
  'tours',
  'sour',
  'flour',
  'detour',
  'wise',
  'rise',
  'arise',
  'raise',
  'noise',
  'poise',
  'praise',
  'promise',
  'premise',
  'exercise',
  'expertise',
  'advise',
  'advertise',
  'compromise',
  'comprise',
  'enterprise',
  'franchise',
  'merchandise',
  'revise',
  'supervise',
  'surprise',
  'televise',
  'devise',
  'disguise',
  'despise',
  'excise',
  'incise',
  'precise',
  'concise',
  'otherwise',
  'since',
  'once',
  'fence',
  'hence',
  'thence',
  'whence',
  'pence',
  'sentence',
  'silence',
  'science',
  'reference',
  'difference',
  'preference',
  'conference',
  'presence',
  'absence',
  'sequence',
  'evidence',
  'experience',
  'audience',
  'dependence',
  'independence',
  'confidence',
  'existence',
  'influence',
  'intelligence',
  'occurrence',
  'patience',
  'programme',
  'centre',
  'metre',
  'litre',
  'theatre',
  'fibre',
  'calibre',
  'sabre',
  'genre',
  'acre',
  'massacre',
  'mediocre',
  'ogre',
  'lucre',
  'tre',
  'entre',
  'cadre',
  'timbre',
  'rogue',
  'vogue',
  'league',
  'tongue',
  'plague',
  'vague',
  'fatigue',
  'intrigue',
  'unique',
  'antique',
  'noise',
  'cruise',
  'bruise',
  'guise',
  'chaise',
  'mayonnaise',
  'valise',
  'reprise',
]);
/** Endings that are too short to judge alone need at least this many letters before them. */
const MIN_STEM = 3;

function groups(table: string): Map<string, string[]> {
  const byWord = new Map<string, string[]>();
  for (const line of table.trim().split(/[|\n]/)) {
    const forms = line
      .trim()
      .split(/\s+/)
      .filter((form) => form.length > 0);
    for (const form of forms)
      byWord.set(form, [...new Set([...(byWord.get(form) ?? []), ...forms.filter((other) => other !== form)])]);
  }
  return byWord;
}

const VERB_FORMS = groups(IRREGULAR_VERBS);
const PLURAL_FORMS = groups(IRREGULAR_PLURALS);

/** The word in the other spelling convention, or null when it has none we know of. */
export function otherSpelling(word: string): string | null {
  if (NOT_SPELLING_VARIANTS.has(word)) return null;
  // "programme" and "centre" are real British spellings of "program" and "center" but sit in the
  // exclusion list as endings; name them directly.
  if (word === 'programme' || word === 'programmes') return word.replace('programme', 'program');
  if (word === 'centre' || word === 'centres') return word.replace('centre', 'center');
  const pair = SPELLING_PAIRS.get(word);
  if (pair !== undefined) return pair;
  // The longest ending that fits wins; of two as long, the earlier rule.
  let best = -1;
  for (let rule = 0; rule < SPELLING_RULES.length; rule += 2) {
    const from = SPELLING_RULES[rule];
    if (
      word.endsWith(from) &&
      word.length - from.length >= MIN_STEM &&
      (best < 0 || from.length > SPELLING_RULES[best].length)
    )
      best = rule;
  }
  if (best < 0) return null;
  const [from, to] = [SPELLING_RULES[best], SPELLING_RULES[best + 1]];
  const candidate = word.slice(0, word.length - from.length) + to;
  return NOT_SPELLING_VARIANTS.has(candidate) ? null : candidate;
}

/**
 * Variants already worked out, by word: query expansion asks for a word's variants five times
 * (genericness, inflections, derivations, synonyms, attributes), and the spelling rules try every
 * ending both ways. Cleared when full: a bound on memory, not an eviction policy.
 */
const variantsByWord = new Map<string, readonly string[]>();
const MAX_CACHED_WORDS = 4096;

/** Other surface forms of a lowercase word: irregular verb forms, irregular plural, other spelling. */
export function wordFormVariants(word: string): readonly string[] {
  const cached = variantsByWord.get(word);
  if (cached !== undefined) return cached;
  const variants = variantsOf(word);
  if (variantsByWord.size >= MAX_CACHED_WORDS) variantsByWord.clear();
  variantsByWord.set(word, variants);
  return variants;
}

const NO_VARIANTS: readonly string[] = Object.freeze([]);

/** wordFormVariants without its cache. */
function variantsOf(word: string): readonly string[] {
  const verbs = VERB_FORMS.get(word);
  const plurals = PLURAL_FORMS.get(word);
  const spelling = otherSpelling(word);
  // Most words have no irregular form and no other spelling: one shared empty list, no set.
  if (verbs === undefined && plurals === undefined && (spelling === null || spelling === word)) return NO_VARIANTS;
  const out = new Set<string>([...(verbs ?? []), ...(plurals ?? [])]);
  if (spelling !== null) out.add(spelling);
  out.delete(word);
  return Object.freeze([...out]);
}

/**
 * Every word one of whose wordFormVariants is in `targets` (lowercase words), found by running
 * the variant rules backwards: a word has a variant only through the irregular tables, the
 * spelling pairs or an ending rule, and a rule that rewrites a word into a target could only
 * have started from the target with that rule's ending put back. Each spelling candidate is then
 * checked with the rules forwards, so the set holds exactly the words whose variants reach a
 * target. Once per process: 0.3 ms warm, 4–10 ms at a fresh process's first call (queryConcepts
 * asks for it only once busy).
 */
export function wordsWithVariantIn(targets: ReadonlySet<string>): Set<string> {
  const words = new Set<string>();
  // The irregular tables: a word whose group holds a target other than itself (variantsOf drops the word).
  const fromTable = (forms: readonly string[], word: string): void => {
    for (let index = 0; index < forms.length; index++)
      if (forms[index] !== word && targets.has(forms[index])) {
        words.add(word);
        return;
      }
  };
  VERB_FORMS.forEach(fromTable);
  PLURAL_FORMS.forEach(fromTable);
  // The spellings: only a pair's word, a named special or a target with a rule's ending put back
  // can spell a target another way; otherSpelling, asked of those alone, decides.
  const spelled = new Set<string>([...SPELLING_PAIRS.keys(), 'programme', 'programmes', 'centre', 'centres']);
  // Targets by each of their endings as long as a rule's, so each rule asks for its own ending once:
  // run once, at the first query, this code is not optimised, and every target tried with every rule
  // (11,000 steps for the generic words) cost the first query several milliseconds.
  let longest = 0;
  for (let rule = 1; rule < SPELLING_RULES.length; rule += 2) longest = Math.max(longest, SPELLING_RULES[rule].length);
  const byEnding = new Map<string, string[]>();
  for (const target of targets)
    for (let length = 1; length <= Math.min(longest, target.length); length++) {
      const ending = target.slice(target.length - length);
      const list = byEnding.get(ending);
      if (list === undefined) byEnding.set(ending, [target]);
      else list.push(target);
    }
  for (let rule = 0; rule < SPELLING_RULES.length; rule += 2) {
    const to = SPELLING_RULES[rule + 1];
    for (const target of byEnding.get(to) ?? [])
      spelled.add(target.slice(0, target.length - to.length) + SPELLING_RULES[rule]);
  }
  for (const word of spelled) {
    const spelling = otherSpelling(word);
    if (spelling !== null && spelling !== word && targets.has(spelling)) words.add(word);
  }
  return words;
}

/**
 * Comparative, superlative and agent forms the stemmer keeps apart ("fast" / "faster" / "fastest",
 * "easy" / "easier", "import" / "importer"), both ways. Looser than an inflection ("worker" is not
 * quite "work"), so query expansion gives them less credit than wordFormVariants.
 */
export function derivedForms(word: string): string[] {
  // Only words have comparatives: "2022er" or "v2er" would be lookups of nothing.
  if (!/^[a-z]+$/.test(word)) return [];
  // Most words end in neither suffix: the loop below adds nothing for them, and the two forms made
  // after it differ from each other and from the word, so no Set is needed to keep them apart.
  if (!word.endsWith('er') && !word.endsWith('est')) {
    if (word.length < 3) return [];
    const base = word.endsWith('y') ? `${word.slice(0, -1)}i` : word.endsWith('e') ? word.slice(0, -1) : word;
    return [`${base}er`, `${base}est`];
  }
  const out = new Set<string>();
  for (const suffix of ['er', 'est']) {
    if (word.endsWith(`i${suffix}`) && word.length > suffix.length + 3)
      out.add(`${word.slice(0, -suffix.length - 1)}y`);
    if (word.endsWith(suffix) && word.length > suffix.length + 2) {
      const stem = word.slice(0, -suffix.length);
      out.add(stem);
      out.add(`${stem}e`);
      // "bigger" -> "big": a doubled final consonant belongs to the suffix.
      if (stem.length > 2 && stem.at(-1) === stem.at(-2)) out.add(stem.slice(0, -1));
    }
  }
  if (!word.endsWith('er') && !word.endsWith('est') && word.length >= 3) {
    const base = word.endsWith('y') ? `${word.slice(0, -1)}i` : word.endsWith('e') ? word.slice(0, -1) : word;
    out.add(`${base}er`);
    out.add(`${base}est`);
  }
  out.delete(word);
  return [...out];
}

/**
 * The lemmas a regularly inflected word may have, for looking it up in a table of lemmas:
 * "allergies" -> allergy, "decided" -> decid, decide; "failing" -> fail, faile. Most candidates are
 * not words; the table keeps the one that is. The word itself comes first.
 */
export function regularLemmas(word: string): string[] {
  const base = inflectionBase(word);
  if (base === word) return [word];
  const out = [word, base];
  // "decided" and "comparing" dropped an "e" the lemma has; "added" keeps a double consonant that
  // inflectionBase, made for "stopped", takes off.
  if (/(ed|ing)$/.test(word)) out.push(`${base}e`);
  if (/(ed|ing)$/.test(word) && base !== word.replace(/(ed|ing)$/, '')) out.push(word.replace(/(ed|ing)$/, ''));
  return [...new Set(out)];
}

/** The word without a regular inflection (plural, -ed, -ing), for telling inflections from derivations. */
function inflectionBase(word: string): string {
  let base = word;
  if (/ies$/.test(base) && base.length > 4) base = `${base.slice(0, -3)}y`;
  else if (/(s|x|z|ch|sh)es$/.test(base)) base = base.slice(0, -2);
  else if (/[^s]s$/.test(base) && base.length > 3) base = base.slice(0, -1);
  else if (/ing$/.test(base) && base.length > 5) base = base.slice(0, -3);
  else if (/ed$/.test(base) && base.length > 4) base = base.slice(0, -2);
  // "logged" -> "logg" -> "log", "setting" -> "sett" -> "set"; "install", "pass" keep theirs.
  if (base !== word && /([^aeioulsfz])\1$/.test(base)) base = base.slice(0, -1);
  return base;
}

/**
 * True when two lowercase words are the same word up to a regular inflection ("deploys" /
 * "deploy", "caching" / "cache", "logged" / "log"), and false for words the stemmer joins
 * across a derivation ("products" / "production", "organ" / "organization"): a vocabulary entry
 * for one must not speak for the other.
 */
export function isInflectionOf(word: string, other: string): boolean {
  if (word === other) return true;
  const a = inflectionBase(word);
  const b = inflectionBase(other);
  return a === b || `${a}e` === b || `${b}e` === a;
}
