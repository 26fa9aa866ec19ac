import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';

/**
 * Lazy re-embedding (seed 000 §12.1 T3): memories stored while the provider was down, or under
 * another model, get their vectors in the background, a batch at a time.
 */
export class EmbeddingBackfill {
  private readonly deps: CoreDeps;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  /**
   * Re-embeds pending memories every `intervalMs` until none is left. Failures wait for the next
   * tick: the provider may be back by then. Does nothing without a provider or when already started.
   */
  start(intervalMs: number): void {
    if (!this.deps.embeddings.provider || this.timer) return;
    let running = false;
    const tick = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        let embedded: number;
        do embedded = await this.runBatch();
        while (embedded > 0);
      } catch (error) {
        this.deps.log.warn('background re-embedding paused', error);
      } finally {
        running = false;
      }
    };
    this.timer = setInterval(() => void tick(), intervalMs);
    this.timer.unref();
    void tick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Embeds one batch of pending memories; returns how many were embedded. */
  async runBatch(batchSize = 32): Promise<number> {
    const { embeddings, store } = this.deps;
    const model = embeddings.model;
    if (!model) return 0;
    const pending = await store.listUnembedded(null, model, batchSize);
    if (pending.length === 0) return 0;
    const vectors = await embeddings.embedMany(pending.map((memory) => memory.content));
    for (let index = 0; index < pending.length; index++) {
      // Only the vector is set: an edit or forget made while the batch was embedding stays.
      await store
        .changeMemory({
          user_id: pending[index].user_id,
          memory_id: pending[index].memory_id,
          change: { embedding: { model, vector: vectors[index] } },
          at: null,
          expected_version: pending[index].version,
          if_forgotten: 'drop',
        })
        .catch((error: unknown) => {
          // New text was stored meanwhile, with its own embedding: this vector is of the old text.
          if (!MemoryError.is(error, 'CONFLICT')) throw error;
        });
    }
    return pending.length;
  }
}
