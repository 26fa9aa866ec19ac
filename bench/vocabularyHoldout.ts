/**
 * Leave-one-project-out check of the software vocabulary's groups (issue 30), on coding-dev-2:
 * for each of its projects, the groups that help on the other projects' questions are derived
 * (removing the group from the full vocabulary loses hits there), then measured on the held-out
 * project's questions. A group is kept only when, in every fold that derived it, it did not lose a
 * held-out hit, and in at least one it gained one. Hits: target at rank 1, within 5, within 10
 * (each counts one point), queries asked as the set's README says (limit 10, min_similarity 0).
 *
 *   node bench/vocabularyHoldout.ts            # the folds and the groups kept
 *   node bench/vocabularyHoldout.ts --verbose  # every group's effect per project
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { analyzeQuery } from '../src/core/text/analyzer.ts';
import {
  restrictVocabularyForEvaluation,
  vocabularyGroups,
  type VocabularyGroup,
} from '../src/core/text/vocabulary/softwareVocabulary.ts';
import { loadProjectSet, projectMemory, type ProjectQuery } from './coding/codingSet2.ts';

const USER = 'holdout';
const verbose = process.argv.includes('--verbose');
const set = loadProjectSet();
const projectOfMemory = new Map(set.memories.map((memory) => [memory.id, memory.project]));
const projects = [...new Set(set.memories.map((memory) => memory.project))];
const projectOfQuery = (query: ProjectQuery): string => projectOfMemory.get(query.target) ?? '';

const dataDir = mkdtempSync(join(tmpdir(), 'fml-holdout-'));
const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
await core.open();

/** Points per query id under the vocabulary as restricted now. */
async function points(): Promise<Map<string, number>> {
  const byQuery = new Map<string, number>();
  for (const query of set.queries) {
    const result = await core.recall(
      { user_id: USER, query: query.q, limit: 10, min_similarity: 0 },
      { tool: 'bench', logAccess: false },
    );
    const rank = result.memories.findIndex((memory) => memory.metadata.bench_id === query.target);
    byQuery.set(query.id, rank < 0 ? 0 : (rank < 1 ? 1 : 0) + (rank < 5 ? 1 : 0) + 1);
  }
  return byQuery;
}

const sum = (values: Map<string, number>, queries: readonly ProjectQuery[]): number =>
  queries.reduce((total, query) => total + (values.get(query.id) ?? 0), 0);

/** A group can act on a question only when one of its phrases is in it (as index terms). */
function reachable(group: VocabularyGroup): boolean {
  const phrases = group.bridges.map(([from]) => analyzeQuery(from.join(' ')).map((term) => term.term));
  return set.queries.some((query) => {
    const terms = new Set(analyzeQuery(query.q).map((term) => term.term));
    return phrases.some((phrase) => phrase.length > 0 && phrase.every((term) => terms.has(term)));
  });
}

try {
  for (const memory of set.memories) await core.storeMemory(projectMemory(USER, memory));
  const groups = vocabularyGroups();
  restrictVocabularyForEvaluation(null);
  const all = await points();
  restrictVocabularyForEvaluation(() => false);
  const none = await points();
  const candidates = groups.filter(reachable);
  /** group id -> query id -> points it adds (full vocabulary minus the vocabulary without it). */
  const effect = new Map<string, Map<string, number>>();
  for (const group of candidates) {
    restrictVocabularyForEvaluation((other) => other.id !== group.id);
    const without = await points();
    effect.set(
      group.id,
      new Map(set.queries.map((query) => [query.id, (all.get(query.id) ?? 0) - (without.get(query.id) ?? 0)])),
    );
  }
  const groupEffect = (id: string, queries: readonly ProjectQuery[]): number =>
    queries.reduce((total, query) => total + (effect.get(id)?.get(query.id) ?? 0), 0);

  console.log(
    `coding-dev-2: ${set.queries.length} questions, ${projects.length} projects; ${groups.length} vocabulary groups, ${candidates.length} with a phrase in some question`,
  );
  console.log(
    `points (1 each for rank 1, top 5, top 10): all groups ${sum(all, set.queries)}, none ${sum(none, set.queries)}`,
  );
  console.log(
    `\n${'held-out project'.padEnd(20)}${'n'.padStart(4)}${'derived'.padStart(9)}${'none'.padStart(7)}${'derived'.padStart(9)}${'all'.padStart(6)}`,
  );
  /** group id -> held-out effects in the folds that derived it. */
  const heldOut = new Map<string, number[]>();
  let totalNone = 0;
  let totalDerived = 0;
  for (const project of projects) {
    const training = set.queries.filter((query) => projectOfQuery(query) !== project);
    const testing = set.queries.filter((query) => projectOfQuery(query) === project);
    const derived = candidates.filter((group) => groupEffect(group.id, training) > 0);
    const derivedIds = new Set(derived.map((group) => group.id));
    restrictVocabularyForEvaluation((group) => derivedIds.has(group.id));
    const measured = await points();
    totalNone += sum(none, testing);
    totalDerived += sum(measured, testing);
    for (const group of derived)
      heldOut.set(group.id, [...(heldOut.get(group.id) ?? []), groupEffect(group.id, testing)]);
    console.log(
      `${project.padEnd(20)}${String(testing.length).padStart(4)}${String(derived.length).padStart(9)}${String(sum(none, testing)).padStart(7)}${String(sum(measured, testing)).padStart(9)}${String(sum(all, testing)).padStart(6)}`,
    );
    if (verbose)
      for (const group of candidates) {
        const onTest = groupEffect(group.id, testing);
        if (onTest !== 0 || derivedIds.has(group.id))
          console.log(
            `    ${derivedIds.has(group.id) ? 'derived' : '       '} held-out ${onTest > 0 ? '+' : ''}${onTest}  ${group.id}`,
          );
      }
  }
  console.log(
    `${'all folds'.padEnd(20)}${String(set.queries.length).padStart(4)}${''.padStart(9)}${String(totalNone).padStart(7)}${String(totalDerived).padStart(9)}${String(sum(all, set.queries)).padStart(6)}`,
  );
  const kept = [...heldOut].filter(
    ([, effects]) => effects.every((value) => value >= 0) && effects.some((value) => value > 0),
  );
  console.log(`\ngroups kept (held-out gain in a fold that derived them, no held-out loss in any): ${kept.length}`);
  for (const [id, effects] of kept) console.log(`  ${id}   [held-out ${effects.join(', ')}]`);
  const rejected = [...heldOut].filter(([id]) => !kept.some(([keptId]) => keptId === id));
  console.log(`groups derived in some fold but not kept: ${rejected.length}`);
  for (const [id, effects] of rejected) console.log(`  ${id}   [held-out ${effects.join(', ')}]`);
} finally {
  restrictVocabularyForEvaluation(null);
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
