import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { ShortTokenRanks } from './shortTokenRanks.ts';

/**
 * cl100k_base's merge ranks keyed by a token's bytes written as a Latin-1 string (one character per
 * byte, 0–255). js-tiktoken's own table keys each token by its bytes joined with commas and keeps a
 * byte array per rank beside it: building that took 240–390 ms at a process's first count, and
 * every merge built a comma-joined key. Here `atob` turns each base64 token straight into its key,
 * an ASCII word is its own key, and a merge is one string concatenation.
 */
export interface Cl100kTables {
  ranks: ReadonlyMap<string, number>;
  /**
   * The rank of every two-byte token at `first * 256 + second`, Infinity where the pair is no
   * token: the first pass of byte-pair merging looks up every adjacent pair of single bytes, and
   * an array read is several times cheaper than hashing a new two-character string into a Map of
   * 100,000 (issue 31: 35 % of the merging time of words the tables do not hold whole).
   */
  bytePairRanks: Float64Array;
  /** The ranks of the tokens of three to six bytes, for the later merges (shortTokenRanks.ts). */
  shortRanks: ShortTokenRanks;
}

let tables: Cl100kTables | undefined;

export function cl100kByteRanks(): ReadonlyMap<string, number> {
  return cl100kTables().ranks;
}

export function cl100kTables(): Cl100kTables {
  return (tables ??= parseRanks(cl100kBase.bpe_ranks));
}

/** The rank file's lines are `<name> <first rank> <base64 token> <base64 token> …`, ranks counting up. */
function parseRanks(file: string): Cl100kTables {
  const ranks = new Map<string, number>();
  const bytePairRanks = new Float64Array(256 * 256).fill(Infinity);
  for (const line of file.split('\n')) {
    if (line.length === 0) continue;
    const fields = line.split(' ');
    let rank = Number.parseInt(fields[1], 10);
    if (!Number.isInteger(rank)) throw new Error(`cl100k_base rank line without a first rank: ${line.slice(0, 40)}`);
    for (let index = 2; index < fields.length; index++) {
      const token = atob(fields[index]);
      if (token.length === 2) bytePairRanks[token.charCodeAt(0) * 256 + token.charCodeAt(1)] = rank;
      ranks.set(token, rank++);
    }
  }
  // Built at the first merge that needs it, not with the rank Map: a process that only counts
  // words the caches and the two-byte table answer (a fresh process's first recall, say) never
  // holds its 1.5 MB.
  let shortRanks: ShortTokenRanks | undefined;
  return {
    ranks,
    bytePairRanks,
    get shortRanks() {
      return (shortRanks ??= new ShortTokenRanks(ranks));
    },
  };
}

const UTF8 = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/u;
const CHUNK = 8_192;

/** A text's UTF-8 bytes as a Latin-1 string: ASCII text is returned as it is. */
export function utf8Bytes(text: string): string {
  if (ASCII.test(text)) return text;
  const bytes = UTF8.encode(text);
  let out = '';
  // In chunks: spreading a long piece's bytes into one call would exceed the argument limit.
  for (let start = 0; start < bytes.length; start += CHUNK)
    out += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  return out;
}
