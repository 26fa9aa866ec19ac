import type { ClientOptions, OpenAI } from 'openai';
import { MemoryError } from '../core/domain/errors.ts';
import type { EmbeddingProvider } from '../core/ports/embeddingProvider.ts';

export interface OpenAiEmbeddingOptions {
  apiKey: string;
  /** Any OpenAI-compatible endpoint (Ollama, LM Studio, Azure proxies); OpenAI when omitted. */
  baseUrl?: string;
  model?: string;
  /** Requested output dimensions (text-embedding-3 models can shorten vectors). */
  dimensions?: number;
}

const BATCH = 96;

/** Embeddings through the `openai` client; the model name travels with each stored vector. */
export class OpenAiEmbeddings implements EmbeddingProvider {
  readonly kind = 'openai-compatible';
  readonly model: string;
  readonly dimensions: number;
  private readonly clientOptions: ClientOptions;
  private client: Promise<OpenAI> | undefined;
  private readonly requestDimensions: number | undefined;

  constructor(options: OpenAiEmbeddingOptions) {
    this.model = options.model ?? 'text-embedding-3-small';
    this.requestDimensions = options.dimensions;
    this.dimensions = options.dimensions ?? 1536;
    // The SDK's own retries would hide an outage behind long waits; the core degrades to lexical instead.
    this.clientOptions = {
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      maxRetries: 1,
      timeout: 10_000,
    };
  }

  /**
   * The SDK is loaded at the first embedding, not when the process starts: evaluating it loads
   * Node's fetch implementation too, 40–80 ms of every cold start that never embeds.
   */
  private openClient(): Promise<OpenAI> {
    return (this.client ??= import('openai').then(({ OpenAI }) => new OpenAI(this.clientOptions)));
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      const batch = texts.slice(start, start + BATCH);
      try {
        const client = await this.openClient();
        const response = await client.embeddings.create({
          model: this.model,
          input: batch as string[],
          ...(this.requestDimensions ? { dimensions: this.requestDimensions } : {}),
          encoding_format: 'float',
        });
        for (const item of [...response.data].sort((a, b) => a.index - b.index))
          vectors.push(Float32Array.from(item.embedding));
      } catch (cause) {
        const message = cause instanceof Error ? cause.message : String(cause);
        throw new MemoryError('EMBEDDING_FAILED', `Embedding with ${this.model} failed: ${message}`, { cause });
      }
    }
    return vectors;
  }
}
