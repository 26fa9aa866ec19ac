/**
 * Diagnostic for rank-1 misses on the coding set: for each question whose target is not first at the
 * default floor, the memories above it and the target, with their scores, text match and why_matched.
 * node bench/coding/rankOneMisses.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { storeCodingSetWithDistractors } from './codingData.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'fml-rank1-'));
const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
await core.open();
const user = 'rank1';
try {
  const { set, idOf } = await storeCodingSetWithDistractors(core, user);
  for (const query of set.queries) {
    const out = await core.recall({ user_id: user, query: query.q, limit: 10 });
    const rank = out.memories.findIndex((memory) => idOf.get(memory.memory_id) === query.id);
    if (rank === 0) continue;
    console.log(`\n[${query.kind}] ${query.q}  -> target ${query.id} rank ${rank}`);
    const shown = out.memories.slice(0, Math.max(rank + 1, 2));
    const line = (memory: (typeof out.memories)[number], mark: string): void => {
      const b = memory.score_breakdown;
      console.log(
        `  ${mark} ${memory.relevance_score.toFixed(3)} text ${b?.text_match ?? '-'} x ${idOf.get(memory.memory_id) ?? 'turn'} | ${memory.content.slice(0, 70).replace(/\n/g, ' ')} | ${memory.why_matched}`,
      );
    };
    shown.forEach((memory, index) => line(memory, index === rank ? '*' : ' '));
    if (rank < 0) {
      const all = await core.recall({ user_id: user, query: query.q, limit: 50, min_similarity: 0 });
      const target = all.memories.find((memory) => idOf.get(memory.memory_id) === query.id);
      if (target) line(target, `* (floor 0, rank ${all.memories.indexOf(target)})`);
      else console.log('  target not a candidate');
    }
  }
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
