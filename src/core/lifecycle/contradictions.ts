import type { MemoryRecord } from '../domain/records.ts';
import { textSimilarity } from '../longterm/textSimilarity.ts';

/**
 * Contradiction detection between two memories, without a model. Rules are tuned for precision:
 * a 'strong' finding is acted on when a memory is stored (the older one is superseded), a 'weak'
 * one is only reported by find_memory_contradictions for a person to judge.
 */

export type ContradictionKind = 'fact_value' | 'negation' | 'different_value' | 'possible_different_value';

export interface Contradiction {
  kind: ContradictionKind;
  strength: 'strong' | 'weak';
  reason: string;
}

type Comparable = Pick<MemoryRecord, 'content' | 'metadata' | 'memory_category'>;

const NEGATION =
  /\b(?:not|never|no longer|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|wasn'?t|weren'?t|shouldn'?t|mustn'?t|can'?t|cannot|won'?t|avoid|stop(?:ped)? using)\b/gi;
const STATEMENT =
  /^(?<subject>[\w .'/@:-]{2,80}?)\s+(?<verb>is set to|is now|is|are|was|were|uses|use|prefers|prefer|runs on|run on|defaults to|=|:)\s+(?<value>[^.;\n]{1,80})$/i;
/** "Use tabs for indentation": an instruction names its subject last. */
const INSTRUCTION =
  /^(?:always\s+)?(?<verb>use|prefer)\s+(?<value>[^.;\n]{1,60}?)\s+(?:for|in|as)\s+(?<subject>[\w .'/@:-]{2,80})$/i;
const SUBJECT_NOISE = /\b(?:the|our|my|we|a|an|this|that|project|current(?:ly)?)\b/gi;
/** Subjects that name a single-valued setting, where two different values cannot both hold. */
const SETTING_NOUNS = new Set([
  'port',
  'version',
  'timeout',
  'name',
  'language',
  'default',
  'url',
  'host',
  'path',
  'limit',
  'size',
  'timezone',
  'editor',
  'style',
  'framework',
  'database',
  'db',
  'branch',
  'runtime',
  'node',
  'python',
  'region',
  'indentation',
  'indent',
  'formatter',
  'linter',
  'license',
  'owner',
  'deadline',
]);
const ASSIGNMENT_VERBS = new Set(['is', 'are', 'is set to', 'is now', 'defaults to', '=', ':', 'was', 'were']);

interface Statement {
  subject: string;
  verb: string;
  value: string;
  negated: boolean;
  /** The value the statement explicitly rules out ("is not 60 seconds, it is 300 seconds" denies "60 seconds"). */
  denied: string | null;
}

export function detectContradiction(older: Comparable, newer: Comparable): Contradiction | null {
  const factA = factOf(older);
  const factB = factOf(newer);
  if (factA && factB && factA.category === factB.category && factA.key === factB.key) {
    return factA.value === factB.value
      ? null
      : {
          kind: 'fact_value',
          strength: 'strong',
          reason: `Fact ${factA.category}/${factA.key} is "${factA.value}" in one and "${factB.value}" in the other.`,
        };
  }
  // Events are records of what happened; two different events never contradict each other.
  if (older.memory_category === 'episodic' || newer.memory_category === 'episodic') return null;

  const a = parseStatement(older.content);
  const b = parseStatement(newer.content);
  const sameSubject = a !== null && b !== null && a.subject === b.subject && a.subject.length > 0;
  if (sameSubject && (a.denied !== null || b.denied !== null)) {
    // A correction says exactly what it rules out, so it decides alone: "is 60 seconds, not 300"
    // agrees with "is 60 seconds" however alike the words of a "not 300 seconds" statement look.
    const denial = deniedValue(a, b) ?? deniedValue(b, a);
    if (denial) return { kind: 'negation', strength: 'strong', reason: denial };
    if (a.value === b.value) return null;
  }
  const negatedA = hasNegation(older.content);
  const negatedB = hasNegation(newer.content);
  if (negatedA !== negatedB && !(sameSubject && (a.denied !== null || b.denied !== null))) {
    const similarity = textSimilarity(stripNegation(older.content), stripNegation(newer.content));
    if (similarity >= 0.85) {
      return {
        kind: 'negation',
        strength: 'strong',
        reason: `Same statement, but one of them negates it (similarity ${similarity.toFixed(2)} without the negation).`,
      };
    }
  }

  if (!sameSubject) return null;
  if (a.negated !== b.negated && a.value === b.value) {
    return {
      kind: 'negation',
      strength: 'strong',
      reason: `"${a.subject}" ${a.verb} "${a.value}" in one and is negated in the other.`,
    };
  }
  if (a.negated || b.negated || a.value === b.value || textSimilarity(a.value, b.value) >= 0.5) return null;
  const short = wordCount(a.value) <= 4 && wordCount(b.value) <= 4;
  const assignment = ASSIGNMENT_VERBS.has(a.verb) && ASSIGNMENT_VERBS.has(b.verb);
  const setting = SETTING_NOUNS.has(a.subject.split(' ').at(-1) ?? '') || (/\d/.test(a.value) && /\d/.test(b.value));
  if (short && assignment && setting) {
    return {
      kind: 'different_value',
      strength: 'strong',
      reason: `"${a.subject}" is "${a.value}" in one and "${b.value}" in the other.`,
    };
  }
  if (short) {
    return {
      kind: 'possible_different_value',
      strength: 'weak',
      reason: `"${a.subject}" ${a.verb} "${a.value}" in one and "${b.value}" in the other; both may hold.`,
    };
  }
  return null;
}

/** The statement's subject key, used to bucket memories so a scan does not compare every pair. */
export function subjectKey(content: string): string | null {
  return parseStatement(content)?.subject ?? null;
}

export function hasNegation(content: string): boolean {
  NEGATION.lastIndex = 0;
  return NEGATION.test(content);
}

/** The statement without its negation, auxiliaries and plural/3rd-person -s: "does not use" and "uses" compare equal. */
function stripNegation(content: string): string {
  return content
    .replace(NEGATION, ' ')
    .toLowerCase()
    .replace(/\b(?:do|does|did|is|are|was|were|be)\b/g, ' ')
    .replace(/\b(\w{3,})s\b/g, '$1');
}

function parseStatement(content: string): Statement | null {
  const text = expandContractions(content.trim().replace(/[.!]+$/, ''));
  // Only single short statements: in a paragraph the "subject" a regex finds is rarely the real one.
  if (text.length > 200 || /[.;!?]\s/.test(text)) return null;
  const match = STATEMENT.exec(text) ?? INSTRUCTION.exec(text);
  if (!match?.groups) return null;
  let value = match.groups.value.trim().toLowerCase();
  const negated = /^(?:not|no longer|never)\b/.test(value);
  if (negated) value = value.replace(/^(?:not|no longer|never)\s+/, '');
  const subject = match.groups.subject.toLowerCase().replace(SUBJECT_NOISE, ' ').replace(/\s+/g, ' ').trim();
  const verb = match.groups.verb.toLowerCase();
  // "is not A, it is B" and "is B, not A" assert B and deny A: a correction, not a bare negation.
  const corrected = negated ? NEGATED_THEN_CORRECTED.exec(value) : null;
  if (corrected?.groups)
    return {
      subject,
      verb,
      value: cleanValue(corrected.groups.value),
      negated: false,
      denied: cleanValue(corrected.groups.denied),
    };
  const contrasted = negated ? null : CORRECTED_THEN_NEGATED.exec(value);
  if (contrasted?.groups)
    return {
      subject,
      verb,
      value: cleanValue(contrasted.groups.value),
      negated: false,
      denied: cleanValue(contrasted.groups.denied),
    };
  return { subject, verb, value, negated, denied: null };
}

/** After a leading "not": "A, it is B", "A but B", "A, rather B", "A, B" (the value is already lower-case). */
const NEGATED_THEN_CORRECTED =
  /^(?<denied>.+?)(?:,\s+|\s+(?=but\b))(?:but\s+)?(?:(?:it|this|that|they)(?:'s|'re|\s+is|\s+are|\s+was|\s+were)\s+|rather\s+|instead\s+)?(?<value>.+)$/;
/** "B, not A" and "B rather than A" / "B instead of A". */
const CORRECTED_THEN_NEGATED = /^(?<value>.+?)(?:,\s+(?:and\s+)?not\s+|\s+(?:rather than|instead of)\s+)(?<denied>.+)$/;

/** "isn't" → "is not", "it's" → "it is": the statement patterns name the long forms only. */
function expandContractions(text: string): string {
  return text
    .replace(/\b(is|are|was|were)n['’]t\b/gi, '$1 not')
    .replace(/\b(it|that|this)['’]s\b/gi, '$1 is')
    .replace(/\bthey['’]re\b/gi, 'they are');
}

function cleanValue(value: string | undefined): string {
  return (value ?? '').replace(/\s+(?:instead|anymore|any more)$/, '').trim();
}

/** A reason when `denier` rules out exactly the value `stated` asserts about the same subject. */
function deniedValue(stated: Statement, denier: Statement): string | null {
  if (stated.negated || denier.denied === null || denier.denied !== stated.value) return null;
  return `"${stated.subject}" ${stated.verb} "${stated.value}" in one; the other says it is not "${denier.denied}" but "${denier.value}".`;
}

function factOf(memory: Comparable): { category: string; key: string; value: string } | null {
  const fact = memory.metadata?.fact as { category?: unknown; key?: unknown; value?: unknown } | undefined;
  if (!fact || typeof fact.category !== 'string' || typeof fact.key !== 'string' || typeof fact.value !== 'string')
    return null;
  return { category: fact.category, key: fact.key, value: fact.value };
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
