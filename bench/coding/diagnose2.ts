/**
 * Per-question diagnostic of the second coding set (coding-dev-2.json), as bench:quality scores it
 * (limit 10, min_similarity 0, metadata.project), each question asked alone without access logging
 * so the order of questions does not move ranks: the target's rank, its score and the top's.
 * node bench/coding/diagnose2.ts [--verbose]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCore } from '../../src/core/memoryCore.ts';
import { SqliteMemoryStore } from '../../src/stores/sqlite/sqliteStore.ts';
import { loadProjectSet, projectMemory } from './codingSet2.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'fml-diagnose2-'));
const core = new MemoryCore({ store: new SqliteMemoryStore({ dataDir }) });
await core.open();
const user = 'diagnose2';
const verbose = process.argv.includes('--verbose');
try {
  const set = loadProjectSet();
  const idOf = new Map<string, string>();
  const textOf = new Map(set.memories.map((memory) => [memory.id, memory.text]));
  for (const memory of set.memories) {
    const stored = await core.storeMemory(projectMemory(user, memory));
    idOf.set(stored.memory_id, memory.id);
  }
  for (const query of set.queries) {
    const out = await core.recall(
      { user_id: user, query: query.q, limit: 10, min_similarity: 0 },
      { logAccess: false },
    );
    const ranked = out.memories.map((memory) => idOf.get(memory.memory_id));
    const rank = ranked.indexOf(query.target);
    const top = out.memories[0];
    console.log(
      `${query.id} ${query.kind.padEnd(5)} rank ${String(rank).padStart(2)} target ${rank >= 0 ? out.memories[rank].relevance_score.toFixed(3) : '  -  '} top ${top ? top.relevance_score.toFixed(3) : '  -  '} ${ranked[0] ?? '-'}${verbose && rank !== 0 ? `\n    Q: ${query.q}\n    T: ${textOf.get(query.target)?.slice(0, 160)}\n    top: ${top?.content.slice(0, 120)} | ${top?.why_matched ?? ''}` : ''}`,
    );
  }
  for (const question of set.negatives) {
    const answered = await core.recall({ user_id: user, query: question }, { logAccess: false });
    console.log(
      `neg   returned [${answered.memories.map((memory) => memory.relevance_score.toFixed(2)).join(' ')}]${verbose ? `  ${question}` : ''}`,
    );
  }
} finally {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
}
