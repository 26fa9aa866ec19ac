import { MemoryError } from './domain/errors.ts';
import type { EmbeddingProvider } from './ports/embeddingProvider.ts';

export interface EmbeddingOutcome {
  vector: Float32Array | null;
  status: 'embedded' | 'pending' | 'none';
  error?: string;
}

/**
 * Wraps the optional embedding provider with a time limit and health tracking, so a slow or
 * failing provider degrades recall to lexical and stores to "pending" instead of failing tools.
 */
export class EmbeddingGate {
  readonly provider: EmbeddingProvider | null;
  private readonly timeoutMs: number;
  lastError: { message: string; at: string } | null = null;
  failures = 0;
  successes = 0;

  constructor(provider: EmbeddingProvider | null, timeoutMs = 4000) {
    this.provider = provider;
    this.timeoutMs = timeoutMs;
  }

  get model(): string | null {
    return this.provider?.model ?? null;
  }

  async embed(text: string): Promise<EmbeddingOutcome> {
    if (!this.provider) return { vector: null, status: 'none' };
    try {
      const [vector] = await this.withTimeout(this.provider.embed([text]));
      this.successes++;
      return { vector, status: 'embedded' };
    } catch (error) {
      this.failures++;
      const message = error instanceof Error ? error.message : String(error);
      this.lastError = { message, at: new Date().toISOString() };
      return { vector: null, status: 'pending', error: message };
    }
  }

  async embedMany(texts: readonly string[]): Promise<Float32Array[]> {
    if (!this.provider) throw new MemoryError('CONFIGURATION_ERROR', 'No embedding provider is configured.');
    return this.withTimeout(this.provider.embed(texts), this.timeoutMs * 4);
  }

  private withTimeout<T>(work: Promise<T>, ms = this.timeoutMs): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new MemoryError('EMBEDDING_FAILED', `The embedding provider did not answer within ${ms} ms.`)),
        ms,
      );
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}
