// js-tiktoken's cl100k_base rank table, out of the Node bundles and read at the first token count.
// The table is a 1.09 MB string literal: inside a bundle, every process start reads, decodes and
// scans it with the rest of the code although nothing before a first count needs it (a recall's
// answer counts no tokens), and V8 keeps it in the heap for as long as the bundle's functions live.
// The bundles get a small module in its place that holds the pattern and special tokens and reads
// the ranks from `cl100k_base.ranks` beside the bundle (Latin-1: the table is base64 and ASCII) when
// `bpe_ranks` is first read; the build writes that file. Sources and tests import the package as
// before: this changes only how a bundle reaches it.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SPECIFIER = /^js-tiktoken\/ranks\/cl100k_base$/;
export const RANKS_FILE = 'cl100k_base.ranks';

function table() {
  return createRequire(import.meta.url)('js-tiktoken/ranks/cl100k_base');
}

/** Writes the ranks beside the bundles in `outdir`. */
export function writeRankTable(outdir) {
  writeFileSync(join(outdir, RANKS_FILE), table().bpe_ranks, 'latin1');
}

export const lazyRankTable = {
  name: 'lazy-rank-table',
  setup(build) {
    build.onResolve({ filter: SPECIFIER }, () => ({ path: 'cl100k_base', namespace: 'lazy-rank-table' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-rank-table' }, () => {
      const { pat_str, special_tokens } = table();
      return {
        loader: 'js',
        contents: `let ranks;
module.exports = {
  pat_str: ${JSON.stringify(pat_str)},
  special_tokens: ${JSON.stringify(special_tokens)},
  get bpe_ranks() {
    return (ranks ??= require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(RANKS_FILE)}), 'latin1'));
  },
};
`,
      };
    });
  },
};
