/**
 * `npm run bench:growth`: how the cost of each operation grows with the memories of one user.
 * One store grows through 1,000, 10,000 and 100,000 memories; at each size the same operations
 * run through the core the MCP server uses, and the table shows p50/p95/p99 per size.
 *
 *   npm run bench:growth                       # 1k, 10k, 100k; full text + 384-d hashing vectors
 *   npm run bench:growth -- --sizes 1000,10000 --ops 100 --dims 0   # full text only
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { HashingTestEmbeddings } from '../src/embeddings/hashingTestEmbeddings.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { latencySummary, ms } from './stats.ts';
import { SeededRandom, syntheticMemory, syntheticSentence } from './syntheticCorpus.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    ops: { type: 'string', default: '200' },
    dims: { type: 'string', default: '384' },
  },
});
const sizes = values.sizes
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const ops = Number(values.ops);
const dims = Number(values.dims);
const TOOLS = [
  'store_memory',
  'recall_memories',
  'get_relevant_context',
  'add_to_working_memory',
  'get_working_memory',
] as const;

const dataDir = mkdtempSync(join(tmpdir(), 'fml-growth-'));
const embeddings = dims > 0 ? new HashingTestEmbeddings(dims) : null;
const store = new SqliteMemoryStore({ dataDir });
const core = new MemoryCore({ store, embeddings });
await core.open();
const random = new SeededRandom(99);
const user = 'growth-user';
const rows: string[] = [];
let loaded = 0;
console.log(
  `Firebolt Memory Layer growth benchmark — node ${process.version}, embedded SQLite, ${embeddings ? `${dims}-d hashing-test vectors` : 'full text only'}, ${ops} operations per tool and size`,
);

for (const size of sizes) {
  const started = performance.now();
  const base = Date.now() - size * 60_000;
  const batch: Array<Promise<void>> = [];
  for (; loaded < size; loaded++) {
    const memory = syntheticMemory(random, user, loaded, new Date(base + loaded * 60_000));
    const vector = embeddings ? (await embeddings.embed([memory.content]))[0] : null;
    batch.push(
      store.insertMemory(
        { ...memory, embedding_model: embeddings?.model ?? null },
        vector && embeddings ? { model: embeddings.model, vector } : null,
      ),
    );
    if (batch.length >= 500) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  const loadSeconds = (performance.now() - started) / 1000;
  // The first search after growth (re)builds in-memory indexes; it is a warm-up, not a sample.
  await core.recall({ user_id: user, query: 'warm up', limit: 10 }, { logAccess: false });
  const samples: Record<string, number[]> = Object.fromEntries(TOOLS.map((tool) => [tool, []]));
  const time = async (tool: string, work: () => Promise<unknown>): Promise<void> => {
    // A transport (stdio, HTTP) hands control back to the event loop between calls, as bench/run.ts does.
    await new Promise((resolve) => setImmediate(resolve));
    const begun = performance.now();
    await work();
    samples[tool].push(performance.now() - begun);
  };
  const { session_id } = await core.initSession({ user_id: user, config: { max_tokens: 4000 } });
  for (let op = 0; op < ops; op++) {
    const query = syntheticSentence(random, 3 + Math.floor(random.next() * 5));
    await time('store_memory', () =>
      core.storeMemory({
        user_id: user,
        content: `${syntheticSentence(random)} growth ${size} op ${op}`,
        memory_category: 'semantic',
        memory_subtype: 'project',
      }),
    );
    await time('recall_memories', () => core.recall({ user_id: user, query, limit: 10 }));
    await time('get_relevant_context', () =>
      core.getRelevantContext({ user_id: user, session_id, query, token_budget: 2000 }),
    );
    await time('add_to_working_memory', () =>
      core.addToWorkingMemory({ session_id, content: syntheticSentence(random, 30), content_type: 'message' }),
    );
    await time('get_working_memory', () => core.getWorkingMemory({ session_id, token_budget: 2000 }));
  }
  loaded += ops;
  console.log(`${size.toLocaleString('en')} memories loaded (+${loadSeconds.toFixed(1)} s)`);
  for (const tool of TOOLS) {
    const summary = latencySummary(samples[tool]);
    rows.push(
      `| ${size.toLocaleString('en')} | ${tool} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${ms(summary.p99)} |`,
    );
  }
}

console.log('\n| memories per user | operation | p50 ms | p95 ms | p99 ms |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
await core.close();
rmSync(dataDir, { recursive: true, force: true });
