import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FireboltConfig } from '../firebolt/fireboltConfig.ts';

/**
 * Where a Firebolt backend keeps its local replica and outbox inside the data directory: one
 * folder per Firebolt target (endpoint or account, and database), so switching targets never
 * replays one target's writes into another.
 */
export function replicaDirFor(dataDir: string, config: FireboltConfig): string {
  const where = config.kind === 'core' ? config.url : `${config.apiEndpoint ?? ''}|${config.account}|${config.engine}`;
  const digest = createHash('sha256').update(`${config.kind}|${where}|${config.database}`).digest('hex').slice(0, 12);
  return join(dataDir, 'firebolt-replica', `${config.kind}-${config.database}-${digest}`);
}
