import type { EmbeddingProvider } from '../core/ports/embeddingProvider.ts';

/**
 * A deterministic embedding provider for tests and offline fusion checks: feature hashing of
 * word unigrams and character trigrams into a unit vector. It is NOT a semantic model (it
 * knows no synonyms) and is never used unless asked for by name ("hashing-test").
 */
export class HashingTestEmbeddings implements EmbeddingProvider {
  readonly kind = 'hashing-test (not a semantic model)';
  readonly model: string;
  readonly dimensions: number;
  /** Artificial latency and failure switch, so tests can exercise slow and failing providers. */
  delayMs = 0;
  failing = false;

  constructor(dimensions = 256) {
    this.dimensions = dimensions;
    this.model = `hashing-test-${dimensions}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failing) throw new Error('hashing-test provider switched to failing');
    return texts.map((text) => this.vectorOf(text));
  }

  private vectorOf(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    const words =
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [];
    for (const word of words) {
      add(vector, `w:${word}`, 1);
      const padded = `#${word}#`;
      for (let index = 0; index + 3 <= padded.length; index++) add(vector, `t:${padded.slice(index, index + 3)}`, 0.3);
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    for (let index = 0; index < vector.length; index++) vector[index] /= norm;
    return vector;
  }
}

function add(vector: Float32Array, feature: string, weight: number): void {
  let hash = 2166136261;
  for (let index = 0; index < feature.length; index++) {
    hash ^= feature.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  const slot = (hash >>> 1) % vector.length;
  vector[slot] += hash & 1 ? weight : -weight;
}
