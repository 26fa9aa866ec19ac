import type { Logger } from '../../core/ports/logger.ts';
import { join } from 'node:path';
import type { FireboltConfig } from '../firebolt/fireboltConfig.ts';
import { FireboltStore } from '../firebolt/fireboltStore.ts';
import type { QueryClientOptions } from '../firebolt/queryClient.ts';
import { SqliteMemoryStore } from '../sqlite/sqliteStore.ts';
import { replicaDirFor } from './localReplica.ts';
import { Outbox } from './outbox.ts';
import { ResilientStore } from './resilientStore.ts';
import type { ResilientStoreOptions } from './resilientStore.ts';

/**
 * The client gives up sooner than on its own (3 attempts, up to 1 s) because a write that
 * cannot reach Firebolt is safe in the outbox; waiting longer only delays the acknowledgement.
 */
const RESILIENT_CLIENT: QueryClientOptions = {
  retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 },
  timeoutMs: 30_000,
};

export interface ResilientFireboltOptions {
  client?: QueryClientOptions;
  replay?: ResilientStoreOptions['replay'];
  /** Where the local replica reports background failures (default: stderr). */
  logger?: Logger;
}

/** Firebolt behind a local SQLite replica and outbox kept in `dataDir`. */
export function createResilientFireboltStore(
  config: FireboltConfig,
  dataDir: string,
  options: ResilientFireboltOptions = {},
): ResilientStore {
  const dir = replicaDirFor(dataDir, config);
  return new ResilientStore({
    remote: new FireboltStore(config, options.client ?? RESILIENT_CLIENT),
    local: new SqliteMemoryStore({ dataDir: dir, ...(options.logger ? { logger: options.logger } : {}) }),
    outbox: new Outbox(join(dir, 'outbox.db')),
    replicaDescription: `the local replica in ${dir}`,
    ...(options.replay ? { replay: options.replay } : {}),
  });
}
