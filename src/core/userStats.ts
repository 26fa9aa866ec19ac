import type { CoreDeps } from './coreDeps.ts';
import type { ExtractionQueue, ExtractionStats } from './extraction/extractionQueue.ts';
import type { EmbeddingStartupCheck } from './ports/embeddingProvider.ts';
import type { StoreUserStats } from './ports/memoryStore.ts';
import { requireId } from './validation.ts';

export interface UserStats extends StoreUserStats {
  user_id: string;
  backend: { kind: string; status: string; detail: string; latency_ms: number };
  embeddings: {
    provider: string;
    model: string | null;
    failures: number;
    last_error: { message: string; at: string } | null;
    startup_check: EmbeddingStartupCheck | null;
  };
  /** Present while background extraction runs (startExtraction). */
  extraction?: ExtractionStats;
}

/** A user's counts beside the health of what serves them: the backend, the embeddings, the background queue. */
export async function userStats(
  { store, embeddings }: CoreDeps,
  userId: string,
  embeddingCheck: EmbeddingStartupCheck | null,
  extraction: ExtractionQueue | null,
): Promise<UserStats> {
  const [stats, health] = await Promise.all([store.stats(requireId(userId, 'user_id')), store.health()]);
  return {
    user_id: userId,
    ...stats,
    backend: { kind: store.kind, status: health.status, detail: health.detail, latency_ms: health.latency_ms },
    embeddings: {
      provider: embeddings.provider?.kind ?? 'none',
      model: embeddings.model,
      failures: embeddings.failures,
      last_error: embeddings.lastError,
      startup_check: embeddingCheck,
    },
    ...(extraction ? { extraction: extraction.stats() } : {}),
  };
}
