import { MemoryError } from '../../core/domain/errors.ts';
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

/**
 * The per-dimension embedding tables, as recorded in fml_vector_tables. A table is created
 * with its HNSW index the first time a vector of that dimension is stored.
 */
export class VectorTables {
  readonly #client: FireboltQueryClient;
  #tables = new Map<number, VectorTable>();
  /** Dimensions whose VECTOR_SEARCH failed in this process, with the reason. */
  readonly #disabled = new Map<number, string>();
  readonly #creating = new Map<number, Promise<VectorTable>>();

  constructor(client: FireboltQueryClient) {
    this.#client = client;
  }

  all(): VectorTable[] {
    return [...this.#tables.values()].sort((a, b) => a.dimension - b.dimension);
  }

  get(dimension: number): VectorTable | undefined {
    return this.#tables.get(dimension);
  }

  async load(): Promise<void> {
    const { rows } = await this.#client.query('SELECT dimension, table_name, index_name, index_error FROM fml_vector_tables ORDER BY dimension');
    const tables = new Map<number, VectorTable>();
    for (const row of rows) {
      const dimension = Number(row.dimension);
      const known = tables.get(dimension);
      // Two processes may register the same dimension at once; a row with an index wins.
      if (known?.index) continue;
      const disabled = this.#disabled.get(dimension);
      tables.set(dimension, {
        dimension,
        table: row.table_name as string,
        index: disabled === undefined ? ((row.index_name as string | null) ?? null) : null,
        indexError: disabled ?? ((row.index_error as string | null) ?? null),
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
      return Promise.reject(new MemoryError('INVALID_INPUT', `An embedding needs at least one dimension; got ${dimension}.`));
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
      await this.#client.query(vectorIndexDdl(dimension), [], { write: true, idempotent: true });
    } catch (error) {
      const details = fireboltDetails(error);
      // A server that rejects the statement (no HNSW support) gets exact search; anything else is an outage.
      if (details === undefined || details.status < 400 || details.status >= 500) throw error;
      const message = (error as Error).message;
      if (!/already exists/iu.test(message)) {
        index = null;
        indexError = message;
      }
    }
    await this.#client.query(
      'INSERT INTO fml_vector_tables (dimension, table_name, index_name, index_error) VALUES ($1, $2, $3, $4)',
      [dimension, vectorTableName(dimension), index, indexError],
      { write: true, idempotent: false },
    );
    const table = { dimension, table: vectorTableName(dimension), index, indexError };
    this.#tables.set(dimension, table);
    return table;
  }

  /** After VECTOR_SEARCH itself fails, this process searches exactly. */
  disableIndex(dimension: number, reason: string): void {
    this.#disabled.set(dimension, reason);
    const table = this.#tables.get(dimension);
    if (table) this.#tables.set(dimension, { ...table, index: null, indexError: reason });
  }
}
