/** Turns text into vectors. Implementations: OpenAI-compatible HTTP, and a deterministic test provider. */
export interface EmbeddingProvider {
  /** What kind of provider this is, shown in stats and the panel (e.g. "openai-compatible"). */
  readonly kind: string;
  /** Model identifier stored with each vector; vectors of different models are never compared. */
  readonly model: string;
  readonly dimensions: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * What a provider's startup check found (the Ollama check: server reachable, model present, the
 * vector size it returned), kept for stats (memory://{user}/stats) and the panel's Overview.
 */
export interface EmbeddingStartupCheck {
  provider: string;
  reachable: boolean;
  model: string | null;
  dimensions: number | null;
  message: string;
  at: string;
}
