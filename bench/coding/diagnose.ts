/**
 * Diagnostic for calibrating the relevance floor: with the floor off, where each coding question's
 * target ranks and scores, and the best score each never-stored question gets (and what the
 * default floor returns for it).
 * node bench/coding/diagnose.ts [--verbose]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { storeCodingSetWithDistractors } from './codingData.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'fml-diagnose-'));
const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
await core.open();
const user = 'diagnose';
const verbose = process.argv.includes('--verbose');
try {
  const { set, idOf } = await storeCodingSetWithDistractors(core, user);
  for (const query of set.queries) {
    const out = await core.recall({ user_id: user, query: query.q, limit: 20, min_similarity: 0 });
    const rank = out.memories.findIndex((memory) => idOf.get(memory.memory_id) === query.id);
    const target = rank >= 0 ? out.memories[rank] : null;
    const top = out.memories[0];
    // What the agent gets at the default floor: the target's rank there and how many results.
    const answered = await core.recall({ user_id: user, query: query.q });
    const floorRank = answered.memories.findIndex((memory) => idOf.get(memory.memory_id) === query.id);
    console.log(
      `${query.kind.padEnd(6)} floor rank ${String(floorRank).padStart(2)} of ${String(answered.memories.length).padStart(2)} rank ${String(rank).padStart(3)} target ${target ? target.relevance_score.toFixed(3) : '  -  '} top ${top ? top.relevance_score.toFixed(3) : '-'}${verbose ? `  ${query.q} | ${target?.why_matched ?? ''}` : ''}`,
    );
  }
  for (const question of set.negatives) {
    const out = await core.recall({ user_id: user, query: question, limit: 3, min_similarity: 0 });
    // What the agent gets with the default floor: how many memories, and their scores.
    const answered = await core.recall({ user_id: user, query: question });
    const returned = answered.memories.map((memory) => memory.relevance_score.toFixed(2)).join(' ');
    console.log(
      `neg    best ${out.memories[0]?.relevance_score.toFixed(3) ?? '-'} returned [${returned}]${verbose ? `  ${question} | ${out.memories[0]?.content.slice(0, 60)} | ${out.memories[0]?.why_matched}` : ''}`,
    );
  }
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
