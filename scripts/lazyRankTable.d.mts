// Types of scripts/lazyRankTable.mjs for the tests that import it.
export declare const RANKS_FILE: string;
export declare function writeRankTable(outdir: string): void;
export declare const lazyRankTable: { name: string; setup(build: unknown): void };
