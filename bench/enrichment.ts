/**
 * `npm run bench:enrichment`: what background enrichment costs a store_memory call. Three runs of
 * N stores on a fresh embedded store each: enrichment off; on, with the model's answers still out
 * (the store path's own cost: tagging and queueing); on, with a model that answers at once, so
 * the background key writes share the store's group commits. The model is an in-process function:
 * a real endpoint's HTTP would add its own client work, not store work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchKeyEnricher } from '../src/core/enrichment/searchKeyEnricher.ts';
import { RuleBasedExtractor } from '../src/core/extraction/ruleBasedExtractor.ts';
import { MemoryCore } from '../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';
import { latencySummary, ms } from './stats.ts';

const STORES = Number(process.env.FML_BENCH_STORES ?? 500);
type Mode = 'off' | 'on, answers pending' | 'on, answered at once';

async function run(mode: Mode): Promise<{ samples: number[]; enriched: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-bench-enrich-'));
  const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
  await core.open();
  let release: () => void = () => undefined;
  const answersOut = new Promise<void>((resolve) => (release = resolve));
  const enricher: SearchKeyEnricher = {
    name: 'bench-model',
    enrich: async () => {
      if (mode === 'on, answers pending') await answersOut;
      return ['service catalogue', 'port assignment', 'which port does it use'];
    },
  };
  const queue = await core.startExtraction(new RuleBasedExtractor(), { log: () => undefined });
  if (mode !== 'off') core.startEnrichment(enricher);
  const samples: number[] = [];
  try {
    for (let index = 0; index < STORES; index++) {
      const started = performance.now();
      await core.storeMemory({
        user_id: 'bench',
        content: `Service s${index} of team t${index % 13} listens on port ${3000 + index} and logs to bucket b${index % 7}.`,
        memory_category: 'semantic',
        memory_subtype: 'environment',
      });
      samples.push(performance.now() - started);
    }
    release();
    await queue.drain();
    return { samples, enriched: queue.stats().enrichment?.succeeded ?? 0 };
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
console.log(`store_memory latency with background enrichment (${STORES} stores per run; load average ${load})`);
console.log('| enrichment | p50 ms | p95 ms | p99 ms | enriched |');
console.log('|---|---|---|---|---|');
for (const mode of ['off', 'on, answers pending', 'on, answered at once'] as const) {
  const { samples, enriched } = await run(mode);
  const summary = latencySummary(samples);
  console.log(`| ${mode} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${ms(summary.p99)} | ${enriched} |`);
}
console.log(
  `load average after: ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
