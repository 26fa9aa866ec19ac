/**
 * Leave-one-project-out check of recall rules on coding-dev-2 (issue 30): each rule (and a tuned rule's neighbouring settings) is a variant
 * switched through its module's evaluation switch; every question is asked under every variant
 * (limit 10, min_similarity 0, as the set's README scores it, and again at the default floor), one
 * store of the six projects, no access logging so the order of questions moves nothing. For each
 * project, the variant with the most points on the other five (a point each for the target at rank
 * 1, within 5, within 10; the first variant, the product without the rules, on a tie) is measured
 * on the held-out project. A rule is worth keeping when the folds choose it and it does not lose
 * there. Also prints every variant per project, and the near-miss questions' results at the
 * default floor.
 *
 *   node bench/coding/projectHoldout.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { abbreviationsForEvaluation } from '../../src/core/retrieval/namedScope.ts';
import { unknownWholesForEvaluation } from '../../src/core/retrieval/unknownIdentifiers.ts';
import { MIN_PART_LETTERS } from '../../src/core/text/wordParts.ts';
import { PART_CREDIT, wordPartsForEvaluation } from '../../src/core/retrieval/wordParts.ts';
import { describedSoftwareForEvaluation } from '../../src/core/text/vocabulary/describedSoftware.ts';
import { languageClassesForEvaluation } from '../../src/core/text/vocabulary/languageClassMembers.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { loadProjectSet, projectMemory } from './codingSet2.ts';

interface Variant {
  name: string;
  abbreviations: boolean;
  unknownWholes: boolean;
  /** Query words inside a memory's longer words (wordParts.ts): off, or the shortest part and its credit. */
  wordParts: { minLetters: number; credit: number } | null;
  /** Software named for the question's words in Debian's descriptions (describedSoftware.ts); off unless said. */
  described?: boolean;
  /** Languages for the class the question names, from Linguist's types (languageClassMembers.ts); off unless said. */
  classes?: boolean;
}

const PARTS = { minLetters: MIN_PART_LETTERS, credit: PART_CREDIT };
const VARIANTS: Variant[] = [
  { name: 'neither rule', abbreviations: false, unknownWholes: false, wordParts: null },
  { name: 'abbreviated project names', abbreviations: true, unknownWholes: false, wordParts: null },
  { name: 'unknown identifier wholes', abbreviations: false, unknownWholes: true, wordParts: null },
  { name: 'both', abbreviations: true, unknownWholes: true, wordParts: null },
  { name: 'both + word parts', abbreviations: true, unknownWholes: true, wordParts: PARTS },
  { name: 'word parts of 5 letters', abbreviations: true, unknownWholes: true, wordParts: { ...PARTS, minLetters: 5 } },
  { name: 'word parts at credit 0.5', abbreviations: true, unknownWholes: true, wordParts: { ...PARTS, credit: 0.5 } },
  {
    name: 'word parts at credit 0.75',
    abbreviations: true,
    unknownWholes: true,
    wordParts: { ...PARTS, credit: 0.75 },
  },
  { name: 'word parts at credit 0.9', abbreviations: true, unknownWholes: true, wordParts: { ...PARTS, credit: 0.9 } },
  {
    name: '+ Debian descriptions',
    abbreviations: true,
    unknownWholes: true,
    wordParts: PARTS,
    described: true,
  },
  {
    name: '+ language classes (product)',
    abbreviations: true,
    unknownWholes: true,
    wordParts: PARTS,
    described: true,
    classes: true,
  },
];
/** The Debian description table's check: the build before it and the build with it. */
const DESCRIBED_VARIANTS = [VARIANTS[4], VARIANTS[VARIANTS.length - 2]];
/** The language class table's check: the build before it and the product. */
const CLASS_VARIANTS = VARIANTS.slice(-2);
/** The word-part rule's check: chosen against the build before it, its neighbouring settings beside it. */
const WORD_PART_VARIANTS = VARIANTS.slice(3, -2);

interface Outcome {
  /** Target rank from 0 at min_similarity 0; -1 when absent from the 10. */
  rank: number;
  /** The same at the default floor. */
  floorRank: number;
}

const points = (rank: number): number => (rank === 0 ? 1 : 0) + (rank >= 0 && rank < 5 ? 1 : 0) + (rank >= 0 ? 1 : 0);
const fmt = (value: number): string => value.toFixed(1).padStart(5);

const set = loadProjectSet();
const projectOf = new Map(set.memories.map((memory) => [memory.id, memory.project]));
const projects = [...new Set(set.memories.map((memory) => memory.project))];
const dataDir = mkdtempSync(join(tmpdir(), 'fml-project-holdout-'));
const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
await core.open();
try {
  const user = 'holdout';
  const benchId = new Map<string, string>();
  for (const memory of set.memories) {
    const stored = await core.storeMemory(projectMemory(user, memory));
    benchId.set(stored.memory_id, memory.id);
  }
  const outcomes = new Map<string, Map<string, Outcome>>();
  const nearMiss = new Map<string, { results: number; answered: number }>();
  for (const variant of VARIANTS) {
    abbreviationsForEvaluation(variant.abbreviations);
    unknownWholesForEvaluation(variant.unknownWholes);
    wordPartsForEvaluation(variant.wordParts === null ? { on: false } : variant.wordParts);
    describedSoftwareForEvaluation(variant.described === true);
    languageClassesForEvaluation(variant.classes === true);
    const byQuery = new Map<string, Outcome>();
    for (const query of set.queries) {
      const rankAt = async (minSimilarity: number | undefined): Promise<number> => {
        const out = await core.recall(
          { user_id: user, query: query.q, limit: 10, min_similarity: minSimilarity },
          { logAccess: false },
        );
        return out.memories.map((memory) => benchId.get(memory.memory_id)).indexOf(query.target);
      };
      byQuery.set(query.id, { rank: await rankAt(0), floorRank: await rankAt(undefined) });
    }
    outcomes.set(variant.name, byQuery);
    let results = 0;
    let answered = 0;
    for (const question of set.negatives) {
      const out = await core.recall({ user_id: user, query: question }, { logAccess: false });
      results += out.memories.length;
      if (out.memories.length > 0) answered += 1;
    }
    nearMiss.set(variant.name, { results, answered });
  }
  abbreviationsForEvaluation(true);
  unknownWholesForEvaluation(true);
  wordPartsForEvaluation();
  describedSoftwareForEvaluation(true);
  languageClassesForEvaluation(true);

  const queriesOf = (project: string) => set.queries.filter((query) => projectOf.get(query.target) === project);
  const score = (variant: string, project: string, key: keyof Outcome): number =>
    queriesOf(project).reduce((sum, query) => sum + points(outcomes.get(variant)?.get(query.id)?.[key] ?? -1), 0);

  console.log('Points per project (rank 1, within 5, within 10: a point each), min_similarity 0 · default floor');
  console.log(
    `  ${'project'.padEnd(18)} ${'n'.padStart(3)}  ${VARIANTS.map((variant) => variant.name.padStart(29)).join('')}`,
  );
  for (const project of projects)
    console.log(
      `  ${project.padEnd(18)} ${String(queriesOf(project).length).padStart(3)}  ${VARIANTS.map((variant) =>
        `${score(variant.name, project, 'rank')} · ${score(variant.name, project, 'floorRank')}`.padStart(29),
      ).join('')}`,
    );

  const leaveOneOut = (title: string, variants: readonly Variant[]): void => {
    console.log(`\n${title}`);
    let heldBase = 0;
    let heldChosen = 0;
    for (const held of projects) {
      const others = projects.filter((project) => project !== held);
      const total = (variant: Variant) =>
        others.reduce(
          (sum, project) => sum + score(variant.name, project, 'rank') + score(variant.name, project, 'floorRank'),
          0,
        );
      const chosen = variants.reduce((best, variant) => (total(variant) > total(best) ? variant : best), variants[0]);
      const base = score(variants[0].name, held, 'rank') + score(variants[0].name, held, 'floorRank');
      const mine = score(chosen.name, held, 'rank') + score(chosen.name, held, 'floorRank');
      heldBase += base;
      heldChosen += mine;
      console.log(
        `  ${held.padEnd(18)} chosen on the other five: ${chosen.name.padEnd(28)} held out: ${base} -> ${mine}`,
      );
    }
    console.log(`  all folds: ${heldBase} -> ${heldChosen}`);
  };
  leaveOneOut(
    'Leave one project out: the variant with the most points on the other five, measured on the sixth',
    VARIANTS.slice(0, 4),
  );
  leaveOneOut(
    'Word parts: the build before them, the rule and its neighbouring settings, chosen on five projects, measured on the sixth',
    WORD_PART_VARIANTS,
  );
  leaveOneOut(
    'Debian descriptions (generated, derived from no development set): without and with, chosen on five projects, measured on the sixth',
    DESCRIBED_VARIANTS,
  );
  leaveOneOut(
    'Language classes (generated, derived from no development set): without and with, chosen on five projects, measured on the sixth',
    CLASS_VARIANTS,
  );

  console.log(
    '\nAll 78 questions, R@1 / R@5 / R@10 at min_similarity 0 · at the default floor; near-miss results (any)',
  );
  for (const variant of VARIANTS) {
    const byQuery = [...(outcomes.get(variant.name)?.values() ?? [])];
    const at = (key: keyof Outcome, k: number) =>
      (100 * byQuery.filter((outcome) => outcome[key] >= 0 && outcome[key] < k).length) / byQuery.length;
    const near = nearMiss.get(variant.name) ?? { results: 0, answered: 0 };
    console.log(
      `  ${variant.name.padEnd(29)} ${fmt(at('rank', 1))} ${fmt(at('rank', 5))} ${fmt(at('rank', 10))}  · ${fmt(at('floorRank', 1))} ${fmt(at('floorRank', 5))} ${fmt(at('floorRank', 10))}   ${(near.results / set.negatives.length).toFixed(2)} (${Math.round((100 * near.answered) / set.negatives.length)} %)`,
    );
  }
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
