import type { StoreHealth } from '../../core/ports/memoryStore.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { VECTOR_SEARCH_RETRY_MS, type VectorTables } from './vectorTables.ts';

/** Whether the database answers, and how vectors are searched (HNSW, or exact and why). */
export async function checkHealth(
  client: FireboltQueryClient,
  vectorTables: VectorTables,
  kind: string,
  schemaVersion: number,
): Promise<StoreHealth> {
  const started = performance.now();
  const where = client.config.kind === 'core' ? client.config.url : `account ${client.config.account}`;
  try {
    await client.query('SELECT 1 AS ok');
    // A dimension without an index, or whose VECTOR_SEARCH was refused recently, is searched exactly.
    const exact = vectorTables.all().flatMap((table) => {
      const reason = table.index === null ? table.indexError : vectorTables.searchFailure(table.dimension);
      return table.index === null || reason !== null ? [{ dimension: table.dimension, reason: reason ?? '' }] : [];
    });
    const vectors =
      exact.length === 0
        ? 'HNSW vector search'
        : `exact vector search for dimension ${exact.map((entry) => entry.dimension).join(', ')}: ${exact[0].reason} (an index refused at search time is retried after the next insert or ${VECTOR_SEARCH_RETRY_MS / 1000} s)`;
    return {
      status: 'healthy',
      latency_ms: performance.now() - started,
      detail: `${kind} at ${where}, database ${client.config.database}, schema v${schemaVersion}, ${vectors}`,
    };
  } catch (error) {
    return {
      status: 'unhealthy',
      latency_ms: performance.now() - started,
      detail: `${kind} at ${where}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
