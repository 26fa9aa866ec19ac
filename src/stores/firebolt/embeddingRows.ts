import type { MemoryRecord, StoredEmbedding } from '../../core/domain/records.ts';
import { storedNumberList, storedText } from '../common/storedValues.ts';
import { chunks } from './chunks.ts';
import type { TransactionScope } from './queryClient.ts';
import { sqlIdentifier, sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';
import type { VectorTable } from './vectorTables.ts';

/** The SQL of stored embeddings on Firebolt: one vector table per dimension (vectorTables.ts). */

/** IN lists are chunked so the parameters in the query string stay small. */
const IDS_PER_QUERY = 200;

/** The embeddings of `memoryIds` from every vector table, each column checked (a damaged row is PROVIDER_ERROR). */
export async function readEmbeddings(
  scope: TransactionScope,
  tables: readonly VectorTable[],
  userId: string,
  memoryIds: readonly string[],
): Promise<Map<string, StoredEmbedding>> {
  const out = new Map<string, StoredEmbedding>();
  if (memoryIds.length === 0) return out;
  for (const table of tables) {
    for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
      const params = new SqlParams();
      const { rows } = await scope.query(
        `SELECT memory_id, model, embedding FROM ${sqlIdentifier(table.table)} WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)})`,
        params.values,
      );
      for (const row of rows)
        out.set(storedText(row.memory_id, 'memory_id'), {
          model: storedText(row.model, 'model'),
          vector: Float32Array.from(storedNumberList(row.embedding, 'embedding')),
        });
    }
  }
  return out;
}

/** The vector is a literal (numbers only, via sqlLiteral) to keep a 1,536-float array out of the URL. */
export async function insertVector(
  tx: TransactionScope,
  table: string,
  memory: MemoryRecord,
  embedding: StoredEmbedding,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${sqlIdentifier(table)} (user_id, memory_id, model, embedding) VALUES ($1::TEXT, $2::TEXT, $3::TEXT, ${sqlLiteral(embedding.vector)}::ARRAY(REAL))`,
    [memory.user_id, memory.memory_id, embedding.model],
  );
}
