/**
 * The full rows recall reads, only for the candidates that need one: the memories it returns, and
 * the few decisions made on the text or the anchors (layer overrides, anchor freshness). Candidates
 * are scored on their ranking facts; a row a listing already brought is kept, not read again.
 */
import type { MemoryRecord } from '../domain/records.ts';
import type { MemoryStore } from '../ports/memoryStore.ts';
import type { RankedCandidate, ScoredMemory } from './scoredMemory.ts';

export class CandidateRows {
  readonly #store: Pick<MemoryStore, 'getMemories'>;
  /** By partition, then memory id; null for a row found forgotten or erased. */
  readonly #rows = new Map<string, Map<string, MemoryRecord | null>>();

  constructor(store: Pick<MemoryStore, 'getMemories'>) {
    this.#store = store;
  }

  /** A row a listing read already (live, as listings return only live memories). */
  keep(partition: string, memory: MemoryRecord): void {
    this.#partition(partition).set(memory.memory_id, memory);
  }

  /** The candidate with its row; null when the memory was forgotten or erased since it was scored. */
  async read<T extends RankedCandidate>(candidate: T): Promise<(T & ScoredMemory) | null> {
    return (await this.readAll([candidate]))[0] ?? null;
  }

  /**
   * The candidates with their rows, in the order given, leaving out those forgotten or erased since
   * they were scored; the rows not read yet are read with one store call per partition.
   */
  async readAll<T extends RankedCandidate>(candidates: readonly T[]): Promise<Array<T & ScoredMemory>> {
    const missing = new Map<string, string[]>();
    for (const { partition, facts } of candidates)
      if (!this.#partition(partition).has(facts.memory_id))
        missing.set(partition, [...(missing.get(partition) ?? []), facts.memory_id]);
    for (const [partition, ids] of missing) {
      const rows = this.#partition(partition);
      for (const id of ids) rows.set(id, null);
      for (const memory of await this.#store.getMemories(partition, ids))
        if (memory.deleted_at === null) rows.set(memory.memory_id, memory);
    }
    const out: Array<T & ScoredMemory> = [];
    for (const candidate of candidates) {
      const memory = this.#partition(candidate.partition).get(candidate.facts.memory_id);
      if (memory) out.push(Object.assign(candidate, { memory }));
    }
    return out;
  }

  /**
   * The first `limit` of the ranked candidates whose rows still exist, with their rows: rows are read
   * for `limit` at a time, and a memory forgotten meanwhile gives its place to the next candidate.
   */
  async firstWithRows<T extends RankedCandidate>(
    ranked: readonly T[],
    limit: number,
  ): Promise<Array<T & ScoredMemory>> {
    const out: Array<T & ScoredMemory> = [];
    let next = 0;
    while (out.length < limit && next < ranked.length) {
      const batch = ranked.slice(next, next + (limit - out.length));
      next += batch.length;
      out.push(...(await this.readAll(batch)));
    }
    return out;
  }

  #partition(partition: string): Map<string, MemoryRecord | null> {
    let rows = this.#rows.get(partition);
    if (rows === undefined) {
      rows = new Map();
      this.#rows.set(partition, rows);
    }
    return rows;
  }
}
