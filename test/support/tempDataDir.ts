import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `work` in a new directory under the system's temporary one (named `prefix…`), removed afterwards whatever happens. */
export async function withTempDataDir(prefix: string, work: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  try {
    await work(dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
