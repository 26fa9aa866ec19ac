import type { MemoryRecord } from '../src/core/domain/records.ts';
import { makeMemory } from '../test/contract/fixtures.ts';
import { TAXONOMY, type MemoryCategory } from '../src/core/domain/taxonomy.ts';
import { SqliteMemoryStore } from '../src/stores/sqlite/sqliteStore.ts';

/**
 * Deterministic synthetic developer memories: Zipf-distributed vocabulary plus code identifiers,
 * files and packages, so full-text ranking sees realistic term statistics. Seeded, so every run
 * of the benchmark measures the same corpus.
 */
const WORDS = `the build test deploy service database migration schema error timeout retry cache queue worker
config release branch merge review endpoint handler request response latency memory index query table column
user auth token session cookie header proxy gateway cluster node pod container image registry pipeline job
lint format type compile bundle module package import export function class method interface struct enum
decided chose prefer avoid always never fixed resolved failed because when check first then after before
postgres redis kafka nginx docker kubernetes terraform github actions jest vitest eslint prettier webpack vite
react vue svelte express fastify django flask rails spring gradle maven cargo rustc clang python node deno bun
staging production local preview canary rollback hotfix incident outage alert metric trace log span dashboard`.split(
  /\s+/,
);
/**
 * Real notes draw on tens of thousands of distinct words; a vocabulary of a few hundred would make
 * every term match a third of the corpus, a worst case no real store sees. Pseudo-words from
 * syllables give a Zipf-ranked vocabulary of realistic size after the developer words above.
 */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'ze',
  'pa',
  'qu',
  'ri',
  'do',
  'fe',
  'gu',
  'ha',
  'ji',
  'ko',
  'be',
  'xi',
];
const VOCABULARY = [
  ...WORDS,
  ...Array.from({ length: 30_000 }, (_, index) => {
    let word = '';
    for (let rest = index + 400; rest > 0; rest = Math.floor(rest / SYLLABLES.length))
      word += SYLLABLES[rest % SYLLABLES.length];
    return word;
  }),
];
const IDENTIFIERS = [
  'getUserById',
  'parseConfig',
  'retryWithBackoff',
  'OrderService',
  'PaymentGateway',
  'useAuthStore',
  'build_index',
  'load_fixtures',
  'SessionManager',
  'renderPanel',
];
const FILES = [
  'src/api/users.ts',
  'src/db/schema.sql',
  'infra/gateway.yaml',
  'package.json',
  'src/auth/token.py',
  'web/src/App.tsx',
  'Makefile',
  'docs/README.md',
];
const CATEGORIES = Object.keys(TAXONOMY) as MemoryCategory[];

export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }
  next(): number {
    // xorshift32: fast, deterministic, good enough for synthetic text
    this.state ^= this.state << 13;
    this.state ^= this.state >>> 17;
    this.state ^= this.state << 5;
    return (this.state >>> 0) / 4294967296;
  }
  zipf(size: number): number {
    return Math.min(size - 1, Math.floor(size ** this.next()) - 1);
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

export function syntheticSentence(random: SeededRandom, words = 12 + Math.floor(random.next() * 40)): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) {
    const roll = random.next();
    if (roll < 0.04) parts.push(random.pick(IDENTIFIERS));
    else if (roll < 0.07) parts.push(random.pick(FILES));
    else parts.push(VOCABULARY[random.zipf(VOCABULARY.length)]);
  }
  return parts.join(' ');
}

export function syntheticMemory(random: SeededRandom, userId: string, index: number, createdAt: Date): MemoryRecord {
  const category = random.pick(CATEGORIES);
  const subtype = random.pick(TAXONOMY[category]);
  const iso = createdAt.toISOString();
  return makeMemory(userId, {
    memory_id: `mem_bench_${userId}_${index}`,
    memory_category: category,
    memory_subtype: subtype,
    content: `${syntheticSentence(random)} (#${index})`,
    entities: random.next() < 0.3 ? [`file:${random.pick(FILES)}`] : [],
    tags: random.next() < 0.2 ? [random.pick(['infra', 'frontend', 'backend', 'ci'])] : [],
    metadata: { source: 'bench' },
    is_temporal: category === 'episodic',
    importance: Math.round(random.next() * 100) / 100,
    access_count: Math.floor(random.next() * 5),
    created_at: iso,
    last_accessed: iso,
    updated_at: iso,
  });
}

/** Fills an embedded store in `dataDir` with `size` synthetic memories of one user, one minute apart, in batches of 500. */
export async function loadSyntheticStore(dataDir: string, userId: string, size: number, seed: number): Promise<void> {
  const store = new SqliteMemoryStore({ dataDir });
  await store.open();
  const random = new SeededRandom(seed);
  const base = Date.now() - size * 60_000;
  const batch: Promise<void>[] = [];
  for (let index = 0; index < size; index++) {
    batch.push(store.insertMemory(syntheticMemory(random, userId, index, new Date(base + index * 60_000)), null));
    if (batch.length >= 500) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  await store.close();
}
