import type { VectorHit, VectorQuery } from '../../core/ports/memoryStore.ts';
import { fireboltDetails } from './fireboltErrors.ts';
import { memoryFilterSql } from './memoryFilterSql.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { sqlIdentifier, sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';
import type { VectorTable, VectorTables } from './vectorTables.ts';

/** VECTOR_SEARCH filters after its top-k, so it is asked for this many candidates per wanted hit. */
const OVERFETCH = 8;
const MIN_CANDIDATES = 64;

/**
 * Nearest memories by cosine similarity. With an HNSW index: VECTOR_SEARCH over-fetches, then
 * the user/model/filter conditions apply; when that leaves fewer than `limit` hits (other
 * users' vectors crowded the candidates) the exact scan answers instead, so a filter never
 * hides a match. Without an index: exact VECTOR_COSINE_SIMILARITY ordering.
 */
export async function searchVectorSql(
  client: FireboltQueryClient,
  tables: VectorTables,
  query: VectorQuery,
): Promise<VectorHit[]> {
  if (query.limit <= 0 || query.vector.length === 0 || !query.vector.some((x) => x !== 0)) return [];
  const table =
    tables.get(query.vector.length) ?? (await tables.existing()).find((t) => t.dimension === query.vector.length);
  if (!table) return [];
  if (table.index && tables.indexUsable(table)) {
    try {
      const hits = await run(client, table, query, table.index);
      if (hits.length >= query.limit) return hits;
    } catch (error) {
      const details = fireboltDetails(error);
      // Any HTTP refusal (400 missing setting, 5xx on an empty table on Core) is answered exactly;
      // a request that got no answer is an outage and fails like every other query.
      if (details === undefined || details.status === 0) throw error;
      tables.noteSearchFailure(table.dimension, (error as Error).message);
    }
  }
  return run(client, table, query, null);
}

async function run(
  client: FireboltQueryClient,
  table: VectorTable,
  query: VectorQuery,
  index: string | null,
): Promise<VectorHit[]> {
  const params = new SqlParams();
  const target = `${sqlLiteral(query.vector)}::ARRAY(DOUBLE PRECISION)`;
  const candidates = Math.max(MIN_CANDIDATES, query.limit * OVERFETCH);
  const source = index
    ? `VECTOR_SEARCH(INDEX ${sqlIdentifier(index)}, target_vector => ${target}, top_k => ${sqlLiteral(candidates)}, ef_search => ${sqlLiteral(candidates * 2)})`
    : sqlIdentifier(table.table);
  const sql = `SELECT v.memory_id AS memory_id, VECTOR_COSINE_SIMILARITY(v.embedding, ${target}) AS similarity
    FROM ${source} AS v
      JOIN fml_memories m ON m.user_id = v.user_id AND m.memory_id = v.memory_id
    WHERE v.user_id = ${params.add(query.filter.user_id)} AND v.model = ${params.add(query.model)} AND ${memoryFilterSql(query.filter, params, 'm')}
    ORDER BY similarity DESC, v.memory_id ASC
    LIMIT ${sqlLiteral(Math.floor(query.limit))}`;
  // A 500 from VECTOR_SEARCH is a refusal, not a lost answer: not idempotent-retried (429/503 still are).
  const { rows } = await client.query(
    sql,
    params.values,
    index ? { idempotent: false, settings: client.vectorSettings } : {},
  );
  const method = index ? `hnsw:${index}` : 'exact';
  return rows
    .filter((row) => row.similarity !== null)
    .map((row) => ({ memory_id: row.memory_id as string, similarity: Number(row.similarity), method }));
}
