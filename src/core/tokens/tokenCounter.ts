// The lite build plus one rank table: the full package bundles every encoding (megabytes).
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { LruCache } from '../util/lruCache.ts';

export interface TokenCounter {
  count(text: string): number;
}

/**
 * cl100k_base counts (seed 000 §13.1). The encoder's rank table is loaded on first use,
 * not at import, so activation and CLI start stay fast.
 */
export class TiktokenCounter implements TokenCounter {
  private encoder: Tiktoken | undefined;
  // Context assembly counts the same memories on every call; BPE on each would dominate its cost.
  private readonly cache = new LruCache<string, number>(20_000);

  count(text: string): number {
    if (text.length === 0) return 0;
    const cached = this.cache.get(text);
    if (cached !== undefined) return cached;
    this.encoder ??= new Tiktoken(cl100kBase);
    const count = this.encoder.encode(text, [], []).length;
    if (text.length <= 8_192) this.cache.set(text, count);
    return count;
  }
}
