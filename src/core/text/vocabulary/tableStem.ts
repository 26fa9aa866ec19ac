import { stem } from '../stemmer.ts';
import { TABLE_STEMS } from './tableStems.ts';

/**
 * The stems of the words the query expansion's tables hold, worked out at build time
 * (scripts/build-table-stems.mjs): a fresh process's first query builds its lookups from whole
 * tables (the generic words by stem, the software vocabulary by its phrases' terms), and stemming
 * their 700 words there, in code not yet compiled, cost it about 50 ms of CPU (issue 31). Read into
 * a Map at the first lookup: 957 lines split once.
 */
let stems: Map<string, string> | null = null;

function parsed(): Map<string, string> {
  if (stems === null) {
    stems = new Map();
    for (const line of TABLE_STEMS.split('\n')) {
      // A table word has no colon (the generator refuses one), so the first colon ends the key.
      const colon = line.indexOf(':');
      stems.set(line.slice(0, colon), line.slice(colon + 1));
    }
  }
  return stems;
}

/**
 * stem(word), read from the generated table when the word is one of the tables' (the answer is the
 * same: the table is the stemmer's, regenerated with it), worked out for any other word: a table
 * restricted or replaced for an evaluation, a name of the Debian table, a query's own word.
 */
export function tableStem(word: string): string {
  return parsed().get(word) ?? stem(word);
}
