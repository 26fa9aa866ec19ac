/**
 * `npm run bench:anchors`: what checking code anchors costs (issue #18). A workspace of 5,000
 * source files, 10,000 memories each anchored to a function in it, embedded SQLite:
 * - the check of all 10,000 anchors, cold (every file read and parsed) and warm (cached on file
 *   modification: one stat per anchor), and after 250 files changed;
 * - recall p50/p95/p99 over the anchored store with the lazy check, beside the same memories
 *   without anchors on a core without a workspace.
 *
 *   npm run bench:anchors                               # 5,000 files, 10,000 memories, 300 recalls
 *   npm run bench:anchors -- --files 1000 --memories 2000 --recalls 100
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { anchorFor } from '../src/core/anchors/anchorChecker.ts';
import { anchorsOf, type CodeAnchor, pathEntity } from '../src/core/anchors/anchorModel.ts';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { nodeWorkspaceFiles } from '../src/runtime/nodeWorkspaceFiles.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { latencySummary, ms } from './stats.ts';
import { SeededRandom, syntheticMemory, syntheticSentence } from './syntheticCorpus.ts';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '5000' },
    memories: { type: 'string', default: '10000' },
    recalls: { type: 'string', default: '300' },
  },
});
const fileCount = Number(values.files);
const memoryCount = Number(values.memories);
const recalls = Number(values.recalls);
const FUNCTIONS_PER_FILE = 4;

const root = mkdtempSync(join(tmpdir(), 'fml-bench-anchors-'));
const workspace = join(root, 'workspace');
const random = new SeededRandom(18);
const user = 'anchors-bench';

/** A function of 12 lines whose body depends on the file and function index (and a rewrite), so fingerprints differ. */
function sourceFunction(file: number, fn: number, rewrite = 0): string {
  const name = `handler${file}x${fn}`;
  const body = Array.from({ length: 10 }, (_, line) =>
    rewrite === 0
      ? `  const v${line} = input.field${(file + fn + line) % 17} * ${line + fn} + offset${line % 3};`
      : `  const v${line} = lookup${line}(input.key${line + rewrite}, cache${line});`,
  ).join('\n');
  return `export function ${name}(input: Payload, offset0: number, offset1: number, offset2: number): number {\n${body}\n  return v9 + v${fn};\n}\n`;
}

function writeFile(file: number, rewrite = 0): void {
  const functions = Array.from({ length: FUNCTIONS_PER_FILE }, (_, fn) => sourceFunction(file, fn, rewrite));
  const dir = join(workspace, 'src', `module${file % 50}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `file${file}.ts`), `import type { Payload } from '../types';\n\n${functions.join('\n')}`);
}
const pathOf = (file: number): string => `src/module${file % 50}/file${file}.ts`;

console.log(
  `Firebolt Memory Layer anchor benchmark — node ${process.version}, embedded SQLite, ${fileCount} files, ${memoryCount} anchored memories`,
);
let started = performance.now();
for (let file = 0; file < fileCount; file++) writeFile(file);
console.log(`workspace written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// The stores are loaded directly (as bench/growth.ts does): loading is not what is measured.
const anchoredStore = new SqliteMemoryStore({ dataDir: join(root, 'anchored') });
const plainStore = new SqliteMemoryStore({ dataDir: join(root, 'plain') });
const anchoredCore = new MemoryCore({ store: anchoredStore, workspace: nodeWorkspaceFiles(workspace) });
const plainCore = new MemoryCore({ store: plainStore });
await anchoredCore.open();
await plainCore.open();

started = performance.now();
const base = Date.now() - memoryCount * 60_000;
for (let index = 0; index < memoryCount; index += 500) {
  const batch: Array<Promise<void>> = [];
  for (let offset = index; offset < Math.min(memoryCount, index + 500); offset++) {
    const memory = syntheticMemory(random, user, offset, new Date(base + offset * 60_000));
    const file = offset % fileCount;
    const fn = Math.floor(offset / fileCount) % FUNCTIONS_PER_FILE;
    const start = 3 + fn * 13;
    const anchor = anchorFor(
      pathOf(file),
      sourceFunction(file, fn),
      { start, end: start + 11 },
      { name: `handler${file}x${fn}`, kind: 'function' },
    );
    batch.push(plainStore.insertMemory(memory, null));
    batch.push(
      anchoredStore.insertMemory(
        {
          ...memory,
          entities: [...memory.entities, pathEntity(anchor.path)],
          metadata: { ...memory.metadata, anchors: [anchor] },
        },
        null,
      ),
    );
  }
  await Promise.all(batch);
}
console.log(`stores loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// Every anchor of the store, as a check of the whole store (the editor's "Review Stale Memories") reads them.
const anchors: CodeAnchor[] = [];
for (let offset = 0; offset < memoryCount; offset += 1000) {
  const page = await anchoredCore.listMemories({ filter: { user_id: user }, sort: 'created', offset, limit: 1000 });
  for (const memory of page.items) anchors.push(...anchorsOf(memory.metadata));
}
const checker = anchoredCore.anchors!;
const checkAll = async (): Promise<{ seconds: number; counts: Record<string, number> }> => {
  const begun = performance.now();
  const counts: Record<string, number> = {};
  for (const anchor of anchors) {
    const { status } = await checker.check(anchor);
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return { seconds: (performance.now() - begun) / 1000, counts };
};
const cold = await checkAll();
const warm = await checkAll();
// 200 files rewritten (their functions' bodies replaced: changed) and 50 deleted (gone, which searches
// the whole workspace for the code once, then reuses that index): only these files are read again.
for (let file = 0; file < 250; file++) {
  if (file < 200) {
    writeFile(file, 1);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(workspace, pathOf(file)), later, later);
  } else unlinkSync(join(workspace, pathOf(file)));
}
const afterEdits = await checkAll();

// The same queries on both stores, alternating, so a busy machine slows both alike.
const samples: Record<'plain' | 'anchored', number[]> = { plain: [], anchored: [] };
const queryRandom = new SeededRandom(7);
for (const core of [plainCore, anchoredCore])
  await core.recall({ user_id: user, query: 'warm up', limit: 10 }, { logAccess: false });
for (let op = 0; op < recalls; op++) {
  const query = syntheticSentence(queryRandom, 3 + Math.floor(queryRandom.next() * 5));
  for (const [kind, core] of [
    ['plain', plainCore],
    ['anchored', anchoredCore],
  ] as const) {
    await new Promise((resolve) => setImmediate(resolve));
    const begun = performance.now();
    await core.recall({ user_id: user, query, limit: 10 }, { logAccess: false });
    samples[kind].push(performance.now() - begun);
  }
}
const plain = latencySummary(samples.plain);
const anchored = latencySummary(samples.anchored);

const describe = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
console.log(`\ncheck of ${anchors.length} anchors over ${fileCount} files`);
console.log(`  cold (read + parse every file):   ${cold.seconds.toFixed(2)} s  (${describe(cold.counts)})`);
console.log(`  warm (cached on mtime):           ${warm.seconds.toFixed(2)} s  (${describe(warm.counts)})`);
console.log(`  after 200 changed, 50 deleted:    ${afterEdits.seconds.toFixed(2)} s  (${describe(afterEdits.counts)})`);
console.log(`\nrecall_memories, ${recalls} queries, limit 10      p50      p95      p99      max (ms)`);
console.log(
  `  without anchors (no workspace)   ${ms(plain.p50).padStart(7)}  ${ms(plain.p95).padStart(7)}  ${ms(plain.p99).padStart(7)}  ${ms(plain.max).padStart(7)}`,
);
console.log(
  `  with anchors (lazy check)        ${ms(anchored.p50).padStart(7)}  ${ms(anchored.p95).padStart(7)}  ${ms(anchored.p99).padStart(7)}  ${ms(anchored.max).padStart(7)}`,
);

await anchoredCore.close();
await plainCore.close();
rmSync(root, { recursive: true, force: true });
