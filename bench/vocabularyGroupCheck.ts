/**
 * Per-group check of the hand-written vocabulary groups (issue 30) on data they were not derived
 * from. The groups (bench/vocabulary/candidateGroups.ts) were written from coding-dev.json and
 * LoCoMo's tuning conversations before coding-dev-2.json existed, so coding-dev-2 (all six
 * projects, its questions and near-miss negatives) and LoCoMo's other development conversations
 * are held out for all of them. Each group is measured two ways, the generated language aliases
 * always on:
 *
 *   (a) leave one out: every group, then every group but this one (what it adds to the rest);
 *   (b) add one: no group, then this group alone (what it does by itself).
 *
 * A group is kept when it reaches a coding-dev-2 question, gains in (a) or (b) on coding-dev-2
 * (R@1, R@5, R@10, fewer near-miss results) or on LoCoMo's other conversations (R@5, R@10), and
 * loses nothing in either, on either set, near-miss results included. A group can only act on a
 * question that names one of its phrases, so each is run on the questions whose expanded concepts
 * it changes (queryConcepts), which keeps the run to minutes.
 *
 *   node bench/vocabularyGroupCheck.ts                      # the table and the verdicts
 *   node bench/vocabularyGroupCheck.ts --markdown out.md    # also the report as markdown
 *   node bench/vocabularyGroupCheck.ts --kept               # also the kept lines, as checkedGroups.ts lists them
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../src/core/memoryCore.ts';
import type { RecallInput, RecallOutput } from '../src/core/api/longTermApi.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { queryConcepts } from '../src/core/retrieval/queryConcepts.ts';
import { analyzeQuery, termOf } from '../src/core/text/analyzer.ts';
import { LANGUAGE_ALIASES } from '../src/core/text/vocabulary/languageAliases.ts';
import { restrictVocabularyForEvaluation } from '../src/core/text/vocabulary/softwareVocabulary.ts';
import { abbreviationGroups, listGroups, type VocabularyGroup } from '../src/core/text/vocabulary/vocabularyGroup.ts';
import { CANDIDATE_GROUPS } from './vocabulary/candidateGroups.ts';
import { loadProjectSet, projectMemory } from './coding/codingSet2.ts';
import { loadSamples, recallAtKs, sessionsOf, turnMemory, KS, TUNING } from './locomo/locomoData.ts';

const AT5 = KS.indexOf(5);
const AT10 = KS.indexOf(10);

/** One question of a held-out set and how it is scored. */
interface Question {
  key: string;
  set: 'coding2' | 'near-miss' | 'locomo-other';
  text: string;
  /** The question's points under the vocabulary as restricted now. */
  score: () => Promise<Points>;
}

/** What one question scores; a set's figures are sums of these. */
interface Points {
  c1: number;
  c5: number;
  c10: number;
  /** Near-miss question: results returned at the default floor, and 1 when there is any. */
  nearResults: number;
  nearAny: number;
  l5: number;
  l10: number;
}

const ZERO: Points = { c1: 0, c5: 0, c10: 0, nearResults: 0, nearAny: 0, l5: 0, l10: 0 };
const FIELDS = Object.keys(ZERO) as Array<keyof Points>;

function add(a: Points, b: Points, sign = 1): Points {
  const out = { ...a };
  for (const field of FIELDS) out[field] = a[field] + sign * b[field];
  return out;
}

/**
 * Recall as the MCP tool asks it, without logging access: access counts and recency reorder close
 * matches, and the check asks each question many times.
 */
const recallOf = (core: MemoryCore, input: RecallInput): Promise<RecallOutput> =>
  core.recall(input, { tool: 'bench', logAccess: false });

async function questions(core: MemoryCore): Promise<Question[]> {
  const out: Question[] = [];
  const project = loadProjectSet();
  const idOf = new Map<string, string>();
  const user = 'coding-dev-2';
  for (const memory of project.memories) {
    const stored = await core.storeMemory(projectMemory(user, memory));
    idOf.set(stored.memory_id, memory.id);
  }
  for (const query of project.queries)
    out.push({
      key: `coding2:${query.id}`,
      set: 'coding2',
      text: query.q,
      score: async () => {
        const result = await recallOf(core, { user_id: user, query: query.q, limit: 10, min_similarity: 0 });
        const rank = result.memories.map((memory) => idOf.get(memory.memory_id)).indexOf(query.target);
        return { ...ZERO, c1: rank === 0 ? 1 : 0, c5: rank >= 0 && rank < 5 ? 1 : 0, c10: rank >= 0 ? 1 : 0 };
      },
    });
  project.negatives.forEach((question, index) =>
    out.push({
      key: `near:${index}`,
      set: 'near-miss',
      text: question,
      score: async () => {
        const result = await recallOf(core, { user_id: user, query: question });
        return { ...ZERO, nearResults: result.memories.length, nearAny: result.memories.length > 0 ? 1 : 0 };
      },
    }),
  );
  for (const sample of loadSamples().filter((candidate) => !TUNING.has(candidate.sample_id))) {
    const sampleUser = `locomo-${sample.sample_id}`;
    for (const session of sessionsOf(sample))
      for (const turn of session.turns) await core.storeMemory(turnMemory(sampleUser, session, turn));
    sample.qa.forEach((qa, index) =>
      out.push({
        key: `${sample.sample_id}:${index}`,
        set: 'locomo-other',
        text: qa.question,
        score: async () => {
          const result = await recallOf(core, { user_id: sampleUser, query: qa.question, limit: 50 });
          const recall = recallAtKs(
            result.memories.map((memory) => String(memory.metadata.dia_id)),
            qa.evidence,
          );
          return { ...ZERO, l5: recall[AT5], l10: recall[AT10] };
        },
      }),
    );
  }
  return out;
}

/** Every word of a group's phrases as index terms: a cheap test of which questions it can reach. */
function groupTerms(group: VocabularyGroup): Set<string> {
  const terms = new Set<string>();
  for (const [from] of group.bridges)
    for (const word of from) {
      const term = termOf({ text: word, kind: 'word' });
      if (term !== null) terms.add(term);
      terms.add(word);
    }
  return terms;
}

const signature = (text: string): string => JSON.stringify(queryConcepts(text));

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const markdownIndex = argv.indexOf('--markdown');
  const markdownPath = markdownIndex >= 0 ? argv[markdownIndex + 1] : null;
  const languages = abbreviationGroups(LANGUAGE_ALIASES);
  const candidates = listGroups(CANDIDATE_GROUPS);
  const universe = [...languages, ...candidates];
  const languageSet = new Set(languages);
  /** The vocabulary of the language aliases and the candidate groups in `on`. */
  const use = (on: ReadonlySet<VocabularyGroup>): void =>
    restrictVocabularyForEvaluation((group) => languageSet.has(group) || on.has(group), universe);
  const all = new Set(candidates);
  const none = new Set<VocabularyGroup>();

  const dataDir = mkdtempSync(join(tmpdir(), 'fml-group-check-'));
  const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }), config: { neighbourRadius: 2 } });
  await core.open();
  const started = performance.now();
  try {
    const asked = await questions(core);
    const questionTerms = new Map(
      asked.map((question) => [
        question.key,
        new Set([
          ...analyzeQuery(question.text).map((term) => term.term),
          ...question.text.toLowerCase().split(/[^a-z0-9#+./-]+/),
        ]),
      ]),
    );
    const scoreAll = async (on: ReadonlySet<VocabularyGroup>): Promise<Map<string, Points>> => {
      use(on);
      const scores = new Map<string, Points>();
      for (const question of asked) scores.set(question.key, await question.score());
      return scores;
    };
    const withAll = await scoreAll(all);
    const signaturesAll = new Map(asked.map((question) => [question.key, signature(question.text)]));
    const withNone = await scoreAll(none);
    const signaturesNone = new Map(asked.map((question) => [question.key, signature(question.text)]));
    const total = (scores: Map<string, Points>, set?: Question['set']): Points =>
      asked
        .filter((question) => set === undefined || question.set === set)
        .reduce((sum, question) => add(sum, scores.get(question.key) ?? ZERO), ZERO);

    /** The questions whose concepts change from `baseSignatures` under `on`, and what they score then. */
    const effect = async (
      on: ReadonlySet<VocabularyGroup>,
      reach: readonly Question[],
      baseSignatures: Map<string, string>,
      baseScores: Map<string, Points>,
    ): Promise<{ reached: Question[]; delta: Points }> => {
      use(on);
      const reached = reach.filter((question) => signature(question.text) !== baseSignatures.get(question.key));
      let delta = ZERO;
      for (const question of reached)
        delta = add(delta, add(await question.score(), baseScores.get(question.key) ?? ZERO, -1));
      return { reached, delta };
    };

    interface Row {
      group: VocabularyGroup;
      coding2: number;
      locomo: number;
      leaveOut: Points;
      addOne: Points;
      verdict: string;
      kept: boolean;
    }
    const rows: Row[] = [];
    for (const group of candidates) {
      const terms = groupTerms(group);
      const reach = asked.filter((question) => {
        const words = questionTerms.get(question.key)!;
        return [...terms].some((term) => words.has(term));
      });
      const without = new Set(all);
      without.delete(group);
      // (a): all minus the group; the group's effect is all's score minus this one's.
      const leave = await effect(without, reach, signaturesAll, withAll);
      const leaveOut = add(ZERO, leave.delta, -1);
      const alone = await effect(new Set([group]), reach, signaturesNone, withNone);
      const reached = new Set([...leave.reached, ...alone.reached].map((question) => question.key));
      const coding2 = asked.filter(
        (question) => reached.has(question.key) && (question.set === 'coding2' || question.set === 'near-miss'),
      ).length;
      const locomo = asked.filter((question) => reached.has(question.key) && question.set === 'locomo-other').length;
      if (reached.size === 0) {
        rows.push({ group, coding2, locomo, leaveOut, addOne: alone.delta, verdict: 'no question', kept: false });
        continue;
      }
      const both = [leaveOut, alone.delta];
      const gains = both.some(
        (points) =>
          points.c1 > 0 ||
          points.c5 > 0 ||
          points.c10 > 0 ||
          points.l5 > 1e-9 ||
          points.l10 > 1e-9 ||
          points.nearResults < 0,
      );
      const costs = both.some(
        (points) =>
          points.c1 < 0 ||
          points.c5 < 0 ||
          points.c10 < 0 ||
          points.l5 < -1e-9 ||
          points.l10 < -1e-9 ||
          points.nearResults > 0 ||
          points.nearAny > 0,
      );
      const verdict =
        coding2 === 0
          ? 'removed: no coding-2 question'
          : costs
            ? 'removed: costs'
            : gains
              ? 'kept'
              : 'removed: no gain';
      rows.push({ group, coding2, locomo, leaveOut, addOne: alone.delta, verdict, kept: verdict === 'kept' });
    }

    const kept = new Set(rows.filter((row) => row.kept).map((row) => row.group));
    const withKept = await scoreAll(kept);
    restrictVocabularyForEvaluation(null);

    const fmt = (value: number): string =>
      Math.abs(value) < 1e-9 ? '0' : `${value > 0 ? '+' : ''}${Number(value.toFixed(2))}`;
    const deltaCells = (points: Points): string =>
      [points.c1, points.c5, points.c10, points.nearResults, points.l5, points.l10].map(fmt).join(' / ');
    const reachedRows = rows.filter((row) => row.verdict !== 'no question');
    const lines: string[] = [];
    lines.push(
      `Generated by \`node bench/vocabularyGroupCheck.ts --markdown\`: ${candidates.length} hand-written groups (${abbreviationGroups(CANDIDATE_GROUPS.abbreviations).length} abbreviations, ${listGroups({ abbreviations: '', categories: CANDIDATE_GROUPS.categories, equivalents: '' }).length} categories, ${listGroups({ abbreviations: '', categories: '', equivalents: CANDIDATE_GROUPS.equivalents }).length} equivalents), measured on coding-dev-2 (${total(withAll, 'coding2').c10 >= 0 ? asked.filter((q) => q.set === 'coding2').length : 0} questions, ${asked.filter((q) => q.set === 'near-miss').length} near-miss) and LoCoMo's other development conversations (${asked.filter((q) => q.set === 'locomo-other').length} questions), the generated language aliases always on.`,
      '',
      'Deltas are what the group adds, in questions: coding-2 hits @1 / @5 / @10, near-miss results (lower is better), LoCoMo other recall@5 / @10 (summed over questions). (a) leave one out of all groups; (b) add one to none.',
      '',
      '| group | coding-2 q | LoCoMo q | (a) c@1 / c@5 / c@10 / near / L@5 / L@10 | (b) c@1 / c@5 / c@10 / near / L@5 / L@10 | verdict |',
      '|---|---|---|---|---|---|',
    );
    for (const row of reachedRows)
      lines.push(
        `| ${row.group.id.replace(/\|/g, '\\|')} | ${row.coding2} | ${row.locomo} | ${deltaCells(row.leaveOut)} | ${deltaCells(row.addOne)} | ${row.verdict} |`,
      );
    const count = (verdict: string): number => rows.filter((row) => row.verdict === verdict).length;
    lines.push(
      '',
      `Accounting: ${candidates.length} groups; kept ${count('kept')}; removed ${candidates.length - count('kept')}: ${count('no question')} reach no question of either set, ${count('removed: no coding-2 question')} reach LoCoMo only (no coding-2 question: no evidence), ${count('removed: no gain')} reach coding-2 without a gain in (a) or (b), ${count('removed: costs')} cost something in (a) or (b).`,
      '',
    );
    const summary = (name: string, scores: Map<string, Points>): string => {
      const c = total(scores, 'coding2');
      const n = total(scores, 'near-miss');
      const l = total(scores, 'locomo-other');
      const nc = asked.filter((q) => q.set === 'coding2').length;
      const nn = asked.filter((q) => q.set === 'near-miss').length;
      const nl = asked.filter((q) => q.set === 'locomo-other').length;
      const pct = (value: number, of: number): string => ((100 * value) / of).toFixed(1);
      return `| ${name} | ${pct(c.c1, nc)} / ${pct(c.c5, nc)} / ${pct(c.c10, nc)} | ${(n.nearResults / nn).toFixed(2)} (${pct(n.nearAny, nn)} %) | ${pct(l.l5, nl)} / ${pct(l.l10, nl)} |`;
    };
    lines.push(
      '| vocabulary | coding-2 R@1 / R@5 / R@10 | near-miss results (any) | LoCoMo other R@5 / R@10 |',
      '|---|---|---|---|',
      summary('language aliases only', withNone),
      summary('+ all 299 hand-written groups', withAll),
      summary(`+ the ${kept.size} kept groups`, withKept),
    );
    lines.push('', 'Kept:', '', ...rows.filter((row) => row.kept).map((row) => `- ${row.group.id}`));
    const report = lines.join('\n');
    console.log(report);
    console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
    if (markdownPath) writeFileSync(markdownPath, `${report}\n`);
    if (argv.includes('--kept')) {
      for (const kind of ['abbreviation', 'category', 'equivalent'])
        console.log(
          `\n${kind}:\n${rows
            .filter((row) => row.kept && row.group.id.startsWith(`${kind}: `))
            .map((row) => row.group.id.slice(kind.length + 2))
            .join('\n')}`,
        );
    }
  } finally {
    restrictVocabularyForEvaluation(null);
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
