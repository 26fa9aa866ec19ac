import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Counts `fs.readSync` calls (how the store reads the WAL index header, walIndexHeader.ts) until
 * `stop`, by replacing it in node:fs and updating the live ESM bindings the store imported.
 */
export function countingHeaderReads(): { count: number; stop: () => void } {
  const original = fs.readSync;
  const counter = { count: 0, stop: () => {} };
  fs.readSync = ((...args: Parameters<typeof fs.readSync>) => {
    counter.count++;
    return original(...args);
  }) as typeof fs.readSync;
  syncBuiltinESMExports();
  counter.stop = () => {
    fs.readSync = original;
    syncBuiltinESMExports();
  };
  return counter;
}
