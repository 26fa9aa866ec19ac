import { join } from 'node:path';

/** The embedded store's file in its data directory; its persisted indexes sit beside it (IndexSnapshotFiles). */
export const STORE_FILE_NAME = 'memory.db';

export function storeFileOf(dataDir: string, fileName: string = STORE_FILE_NAME): string {
  return join(dataDir, fileName);
}
