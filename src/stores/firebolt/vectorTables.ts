import { MemoryError } from '../../core/domain/errors.ts';
import { storedNullableText, storedText } from '../common/storedValues.ts';
import { fireboltDetails } from './fireboltErrors.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { vectorIndexDdl, vectorIndexName, vectorTableDdl, vectorTableName } from './schema.ts';

export interface VectorTable {
  dimension: number;
  table: string;
  /** The HNSW index, or null when the server could not build one (then search is exact). */
  index: string | null;
  indexError: string | null;
}

/** After VECTOR_SEARCH fails for a dimension, exact search answers for this long unless a vector of that dimension is written first. */
export const VECTOR_SEARCH_RETRY_MS = 60_000;

/**
 * The per-dimension embedding tables, as recorded in fml_vector_tables. A table is created
 * with its HNSW index the first time a vector of that dimension is stored.
 */
export class VectorTables {
  readonly #client: FireboltQueryClient;
  #tables = new Map<number, VectorTable>();
  /**
   * The last VECTOR_SEARCH failure per dimension. It pauses the index for that dimension only
   * until a vector is written or VECTOR_SEARCH_RETRY_MS pass: the usual cause on Core is an empty
   * table, which the next insert cures, so one failure never switches the index off for good.
   */
  readonly #searchFailures = new Map<number, { reason: string; at: number }>();
  readonly #creating = new Map<number, Promise<VectorTable>>();
  readonly #now: () => number;

  constructor(client: FireboltQueryClient, now: () => number = Date.now) {
    this.#client = client;
    this.#now = now;
  }

  /** Whether a search of this dimension should try its HNSW index now. */
  indexUsable(table: VectorTable): boolean {
    if (table.index === null) return false;
    const failure = this.#searchFailures.get(table.dimension);
    return failure === undefined || this.#now() - failure.at >= VECTOR_SEARCH_RETRY_MS;
  }

  /** VECTOR_SEARCH was refused by the server (any HTTP error): exact search answers meanwhile. */
  noteSearchFailure(dimension: number, reason: string): void {
    this.#searchFailures.set(dimension, { reason, at: this.#now() });
  }

  /** A vector of this dimension was written: the table is no longer empty, so the index is worth trying again. */
  noteVectorWritten(dimension: number): void {
    this.#searchFailures.delete(dimension);
  }

  /** The last VECTOR_SEARCH failure of a dimension still pausing its index, for health. */
  searchFailure(dimension: number): string | null {
    const table = this.#tables.get(dimension);
    if (!table || this.indexUsable(table)) return null;
    return this.#searchFailures.get(dimension)?.reason ?? null;
  }

  all(): VectorTable[] {
    return [...this.#tables.values()].sort((a, b) => a.dimension - b.dimension);
  }

  get(dimension: number): VectorTable | undefined {
    return this.#tables.get(dimension);
  }

  async load(): Promise<void> {
    const { rows } = await this.#client.query(
      'SELECT dimension, table_name, index_name, index_error FROM fml_vector_tables ORDER BY dimension',
    );
    const tables = new Map<number, VectorTable>();
    for (const row of rows) {
      const dimension = Number(row.dimension);
      const known = tables.get(dimension);
      // Two processes may register the same dimension at once; a row with an index wins.
      if (known?.index) continue;
      tables.set(dimension, {
        dimension,
        table: storedText(row.table_name, 'table_name'),
        index: storedNullableText(row.index_name ?? null, 'index_name'),
        indexError: storedNullableText(row.index_error ?? null, 'index_error'),
      });
    }
    this.#tables = tables;
  }

  /** Which tables may hold rows (to read or delete), refreshed so another process's tables count too. */
  async existing(): Promise<VectorTable[]> {
    await this.load();
    return this.all();
  }

  /** The table for this dimension, created (with its index) on first use; concurrent callers share one creation. */
  ensure(dimension: number): Promise<VectorTable> {
    if (!Number.isInteger(dimension) || dimension <= 0) {
      return Promise.reject(
        new MemoryError('INVALID_INPUT', `An embedding needs at least one dimension; got ${dimension}.`),
      );
    }
    const cached = this.#tables.get(dimension);
    if (cached) return Promise.resolve(cached);
    let pending = this.#creating.get(dimension);
    if (!pending) {
      pending = this.#create(dimension).finally(() => this.#creating.delete(dimension));
      this.#creating.set(dimension, pending);
    }
    return pending;
  }

  async #create(dimension: number): Promise<VectorTable> {
    await this.load();
    const loaded = this.#tables.get(dimension);
    if (loaded) return loaded;
    await this.#client.query(vectorTableDdl(dimension), [], { write: true, idempotent: true });
    let index: string | null = vectorIndexName(dimension);
    let indexError: string | null = null;
    try {
      await this.#client.query(vectorIndexDdl(dimension), [], {
        write: true,
        idempotent: true,
        settings: this.#client.vectorSettings,
      });
    } catch (error) {
      const details = fireboltDetails(error);
      // Any HTTP answer refusing the index (400 unsupported, 5xx from the engine, a table that
      // already has rows) means exact search for this dimension; no answer at all is an outage.
      if (details === undefined || details.status === 0) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (!/already exists/iu.test(message)) {
        index = null;
        indexError = message;
      }
    }
    await this.#client.query(
      'INSERT INTO fml_vector_tables (dimension, table_name, index_name, index_error) VALUES ($1::INT, $2::TEXT, $3::TEXT, $4::TEXT)',
      [dimension, vectorTableName(dimension), index, indexError],
      { write: true, idempotent: false },
    );
    const table = { dimension, table: vectorTableName(dimension), index, indexError };
    this.#tables.set(dimension, table);
    return table;
  }
}
