import { getEncoding, type Tiktoken } from 'js-tiktoken';

export interface TokenCounter {
  count(text: string): number;
}

/**
 * cl100k_base counts (seed 000 §13.1). The encoder's rank table is loaded on first use,
 * not at import, so activation and CLI start stay fast.
 */
export class TiktokenCounter implements TokenCounter {
  private encoder: Tiktoken | undefined;

  count(text: string): number {
    if (text.length === 0) return 0;
    this.encoder ??= getEncoding('cl100k_base');
    return this.encoder.encode(text, [], []).length;
  }
}
