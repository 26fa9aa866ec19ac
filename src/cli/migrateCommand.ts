import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { MemoryError } from '../core/domain/errors.ts';
import { backendConfigFromEnv, describeBackend } from '../runtime/backendSelection.ts';
import { createStore } from '../runtime/createRuntime.ts';
import type { BackendConfig } from '../runtime/runtimeConfig.ts';
import { copyStore } from '../stores/copy/copyStore.ts';
import type { CopyCheckpoint, CopyCheckpointState } from '../stores/copy/copyStore.ts';
import { SqliteMemoryStore } from '../stores/sqlite/sqliteStore.ts';
import { storeFileOf } from '../stores/sqlite/storeFile.ts';

/** A checkpoint file in the data directory, one per target, written atomically (temp + rename). */
export function fileCheckpoint(dataDir: string, target: BackendConfig): CopyCheckpoint {
  const digest = createHash('sha256').update(describeBackend(target)).digest('hex').slice(0, 12);
  const path = join(dataDir, `migrate-checkpoint-${target.kind}-${digest}.json`);
  return {
    async load() {
      return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as CopyCheckpointState) : null;
    },
    async save(state) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(`${path}.tmp`, JSON.stringify(state), { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
    },
  };
}

/**
 * `fml migrate --to firebolt`: the data directory's SQLite store into Firebolt (core or cloud
 * from --backend / FML_BACKEND and the FIREBOLT_* variables). Returns the exit code: 0 when
 * every user's counts match, 1 otherwise.
 */
export async function runMigrate(options: {
  to: string | undefined;
  dataDir: string;
  backend: string | undefined;
  write: (line: string) => void;
}): Promise<number> {
  if (options.to !== 'firebolt')
    throw new MemoryError('INVALID_INPUT', `fml migrate needs --to firebolt; got "${options.to ?? ''}".`);
  const target = backendConfigFromEnv(
    options.dataDir,
    options.backend ?? (process.env.FML_BACKEND?.startsWith('firebolt') ? process.env.FML_BACKEND : 'firebolt-core'),
  );
  if (target.kind === 'sqlite')
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      'fml migrate --to firebolt needs --backend firebolt-core or firebolt-cloud.',
    );
  if (!existsSync(storeFileOf(options.dataDir)))
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `No embedded store in ${options.dataDir} (memory.db missing); pass --data-dir.`,
    );

  const source = new SqliteMemoryStore({ dataDir: options.dataDir });
  // The bare Firebolt store: a copy must fail when Firebolt is away, not queue locally.
  const destination = createStore(target);
  await source.open();
  try {
    await destination.open();
    try {
      const users = await source.listUserIds();
      options.write(`Copying ${users.length} user(s) from ${source.path} to ${describeBackend(target)}`);
      let lastLine = '';
      const result = await copyStore(source, destination, {
        users,
        checkpoint: fileCheckpoint(options.dataDir, target),
        onProgress: (p) => {
          const line = `  ${p.user_id}: ${p.phase} ${p.done}/${p.total} (copied ${p.copied}, already there ${p.skipped})`;
          if (line !== lastLine && (p.phase !== 'memories' || p.done === p.total || p.done % 1000 < 100))
            options.write(line);
          lastLine = line;
        },
      });
      for (const user of result.users) {
        const verdict =
          user.mismatches.length === 0
            ? 'counts match'
            : `MISMATCH ${user.mismatches.map((m) => `${m.field} source ${m.source} target ${m.target}`).join(', ')}`;
        options.write(
          `${user.user_id}: ${user.memories_copied} memories copied, ${user.memories_skipped} already there, ${user.sessions} sessions, ${user.access_log_copied} access-log rows; ${verdict}`,
        );
      }
      options.write(result.verified ? 'Migration verified.' : 'Migration finished with count mismatches.');
      return result.verified ? 0 : 1;
    } finally {
      await destination.close();
    }
  } finally {
    await source.close();
  }
}
