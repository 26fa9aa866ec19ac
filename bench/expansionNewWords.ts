/**
 * What query expansion costs for a word it has never seen (issue 31, point 1): every word of a
 * query new to the per-word caches runs through the word tables, its made-up forms and its splits.
 * `bench:load` asks with a made-up vocabulary, and real users type identifiers and new words, so
 * this path is the one a busy server pays most.
 *
 *   node bench/expansionNewWords.ts [--root DIR ...] [--passes N] [--words N]
 *   node bench/expansionNewWords.ts --hash [--root DIR ...]
 *
 * Each `--root` is a checkout (default: this one); its queryConcepts module is loaded on its own,
 * caches included, so two builds are timed in turn in one process over the same words. A pass
 * expands N words as one-word queries, made-up words (never repeated across passes) and real words
 * of the development sets in turn; the figure is CPU µs per word, median (and best) of the passes.
 * Each pass also expands N queries of 3–6 words drawn as `bench:load` draws its recall queries
 * (syntheticCorpus.ts), through the cached concepts recall reads (sharedQueryConcepts): new words
 * beside words the per-word caches keep, the mix a busy server expands.
 * `--hash` prints, per root, a hash of the concepts of a large query sample (synthetic queries, the
 * dev sets' questions and memories, made-up words): a change that keeps every result keeps it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SeededRandom, syntheticSentence } from './syntheticCorpus.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    passes: { type: 'string', default: '15' },
    words: { type: 'string', default: '2000' },
    hash: { type: 'boolean', default: false },
  },
});
const here = new URL('..', import.meta.url).pathname;
const roots = values.root ?? [here];
const data = join(here, '..', 'shared', 'data');

type Expand = (text: string) => unknown;
interface Expanders {
  queryConcepts: Expand;
  sharedQueryConcepts: Expand;
}

function cpuUs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

async function modulesOf(root: string): Promise<Expanders> {
  return (await import(join(root, 'src/core/retrieval/queryConcepts.ts'))) as Expanders;
}

async function expanderOf(root: string): Promise<Expand> {
  return (await modulesOf(root)).queryConcepts;
}

/** Texts of the development sets: LoCoMo turns and questions, both coding sets' memories and questions. */
function devTexts(): { questions: string[]; memories: string[] } {
  const questions: string[] = [];
  const memories: string[] = [];
  const locomo = JSON.parse(readFileSync(join(data, 'locomo-dev.json'), 'utf8')) as Array<{
    conversation: Record<string, unknown>;
    qa: Array<{ question: string }>;
  }>;
  for (const sample of locomo) {
    for (const qa of sample.qa) questions.push(qa.question);
    for (const [key, value] of Object.entries(sample.conversation))
      if (key.startsWith('session_') && Array.isArray(value))
        for (const turn of value as Array<{ text: string }>) memories.push(turn.text);
  }
  for (const file of ['coding-dev.json', 'coding-dev-2.json']) {
    const set = JSON.parse(readFileSync(join(data, file), 'utf8')) as {
      memories: Array<{ text: string }>;
      queries: Array<{ q: string }>;
      negatives: Array<string | { q: string }>;
    };
    for (const memory of set.memories) memories.push(memory.text);
    for (const query of set.queries) questions.push(query.q);
    // The first set's negatives are plain strings, the second's records.
    for (const negative of set.negatives) questions.push(typeof negative === 'string' ? negative : negative.q);
  }
  return { questions, memories };
}

/** Made-up words unlike the load's vocabulary (another syllable order), numbered from `from`. */
function madeUpWords(from: number, count: number): string[] {
  const syllables = ['ta', 'ker', 'mo', 'lin', 'su', 'dra', 'pe', 'vin', 'co', 'bal', 'ni', 'gro', 'fu', 'zel'];
  const words: string[] = [];
  for (let index = from; index < from + count; index++) {
    let word = '';
    for (let rest = index + 200; rest > 0; rest = Math.floor(rest / syllables.length))
      word += syllables[rest % syllables.length];
    words.push(word);
  }
  return words;
}

const { questions, memories } = devTexts();
const realWords = [
  ...new Set(memories.concat(questions).flatMap((text) => text.toLowerCase().match(/\p{L}+/gu) ?? [])),
];

if (values.hash) {
  const random = new SeededRandom(31);
  const sample = [
    ...Array.from({ length: 20_000 }, () => syntheticSentence(random, 3 + Math.floor(random.next() * 4))),
    ...questions,
    ...memories.slice(0, 3000),
    ...madeUpWords(0, 5000),
    ...realWords,
  ];
  for (const root of roots) {
    const expand = await expanderOf(root);
    const hash = createHash('sha256');
    for (const text of sample) hash.update(JSON.stringify(expand(text))).update('\n');
    console.log(`${root}: ${sample.length} queries, concepts ${hash.digest('hex').slice(0, 16)}`);
  }
} else {
  const modules = await Promise.all(roots.map(modulesOf));
  const expanders = modules.map((module) => module.queryConcepts);
  const loadQueries = new SeededRandom(7);
  const perWord = Number(values.words);
  const passes = Number(values.passes);
  const times = roots.map(() => ({ madeUp: [] as number[], real: [] as number[], queries: [] as number[] }));
  // Warm-up: each root's tables parsed and its code compiled before any pass counts.
  for (const expand of expanders) for (const word of madeUpWords(10_000_000, 3000)) expand(word);
  let realAt = 0;
  for (let pass = 0; pass < passes; pass++) {
    const madeUp = madeUpWords(pass * perWord, perWord);
    const real = Array.from({ length: perWord }, (_, index) => realWords[(realAt + index) % realWords.length]);
    const queries = Array.from({ length: perWord }, () =>
      syntheticSentence(loadQueries, 3 + Math.floor(loadQueries.next() * 4)),
    );
    realAt += perWord;
    // Interleaved, the order turned every pass, so neither root always runs first.
    const order = pass % 2 === 0 ? roots.map((_, index) => index) : roots.map((_, index) => roots.length - 1 - index);
    for (const at of order) {
      const expand = expanders[at];
      // CPU time, not wall time: on a shared machine the process also waits for a core.
      let start = process.cpuUsage();
      for (const word of madeUp) expand(word);
      times[at].madeUp.push(cpuUs(start) / perWord);
      start = process.cpuUsage();
      // A query cache keyed by text would answer a repeated real word: a suffix no rule reads keeps it new.
      for (const word of real) expand(`${word} ${pass}`);
      times[at].real.push(cpuUs(start) / perWord);
      start = process.cpuUsage();
      const shared = modules[at].sharedQueryConcepts;
      for (const query of queries) shared(query);
      times[at].queries.push(cpuUs(start) / perWord);
    }
  }
  const sorted = (list: number[]): number[] => [...list].sort((a, b) => a - b);
  const figure = (list: number[]): string =>
    `mean ${(list.reduce((sum, value) => sum + value, 0) / list.length).toFixed(1)}, median ${sorted(list)[Math.floor(list.length / 2)].toFixed(1)}, best ${sorted(list)[0].toFixed(1)}`;
  console.log(`${realWords.length} distinct real words; ${passes} passes of ${perWord} words each`);
  roots.forEach((root, at) =>
    console.log(
      `${root}: made-up ${figure(times[at].madeUp)} µs a word, real ${figure(times[at].real)} µs a word, load-like queries ${figure(times[at].queries)} µs a query (CPU over the passes)`,
    ),
  );
}
