// Types of scripts/check-promises.mjs for the tests that import it.
export declare const PROMISE_DOCUMENTS: readonly string[];
export declare function promiseDocuments(root: string): string[];
export declare const INDEX: string;
export declare function markersOf(text: string): Array<{ id: string; line: number }>;
export interface PromiseEntry {
  id: string;
  document: string;
  section: string;
  text: string;
  tests: Array<{ file: string; name: string; at: string }>;
  at: string;
}
export declare function parseIndex(text: string): { entries: PromiseEntry[]; problems: string[] };
export declare function testTitlesOf(source: string): RegExp[];
export declare function checkPromises(root: string): string[];
