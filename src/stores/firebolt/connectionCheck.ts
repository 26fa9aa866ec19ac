import { randomBytes } from 'node:crypto';
import { MemoryError } from '../../core/domain/errors.ts';
import type { FireboltConfig } from './fireboltConfig.ts';
import { fireboltDetails } from './fireboltErrors.ts';
import { FireboltQueryClient } from './queryClient.ts';
import type { QueryClientOptions } from './queryClient.ts';
import { sqlIdentifier } from './sqlLiteral.ts';
import { settingId } from '../../core/domain/settingIds.ts';

/** One step of the check: passed, or failed with what happened and what to do about it. */
export interface CheckStep {
  step: 'connect' | 'version' | 'hnsw' | 'vector_search' | 'write' | 'read' | 'delete';
  ok: boolean;
  ms: number;
  detail: string;
  /** For a failure: the action that usually fixes it. */
  advice?: string;
}

export interface ConnectionReport {
  /** Connected and the write/read/delete round trip worked (HNSW being unusable only means exact search). */
  ok: boolean;
  target: string;
  serverVersion: string | null;
  hnswUsable: boolean;
  vectorSearchUsable: boolean;
  steps: CheckStep[];
}

/**
 * Connects with a Firebolt configuration and proves what the store needs: the server version,
 * whether an HNSW index can be created and VECTOR_SEARCH run (with the Core settings the store
 * sends), and a write/read/delete round trip with timings, on a scratch table dropped at the end.
 * Every failure carries a message naming the likely cause (credentials, engine stopped, URL,
 * permissions). Uses the bare client: no outbox, no retries beyond the client's own.
 */
export async function checkFireboltConnection(
  config: FireboltConfig,
  options: QueryClientOptions = {},
): Promise<ConnectionReport> {
  const target =
    config.kind === 'core'
      ? `Firebolt Core at ${config.url}, database ${config.database}`
      : `Firebolt Cloud account ${config.account}, engine ${config.engine}, database ${config.database}`;
  const steps: CheckStep[] = [];
  const report: ConnectionReport = {
    ok: false,
    target,
    serverVersion: null,
    hnswUsable: false,
    vectorSearchUsable: false,
    steps,
  };
  let client: FireboltQueryClient;
  try {
    client = new FireboltQueryClient(config, {
      retry: { attempts: 2, baseDelayMs: 200, maxDelayMs: 1_000 },
      timeoutMs: 30_000,
      ...options,
    });
  } catch (error) {
    steps.push(failure('connect', 0, error, config));
    return report;
  }
  const timed = async (step: CheckStep['step'], work: () => Promise<string>): Promise<boolean> => {
    const started = performance.now();
    try {
      const detail = await work();
      steps.push({ step, ok: true, ms: performance.now() - started, detail });
      return true;
    } catch (error) {
      steps.push(failure(step, performance.now() - started, error, config));
      return false;
    }
  };
  try {
    if (!(await timed('connect', async () => (await client.connect(), 'connected')))) return report;
    await timed('version', async () => {
      const { rows } = await client.query('SELECT VERSION() AS version');
      report.serverVersion = String(rows[0]?.version ?? 'unknown');
      return report.serverVersion;
    });
    const table = `fml_check_${randomBytes(6).toString('hex')}`;
    const quoted = sqlIdentifier(table);
    const created = await timed('write', async () => {
      await client.query(
        `CREATE TABLE ${quoted} (id TEXT NOT NULL, embedding ARRAY(REAL NOT NULL) NOT NULL) PRIMARY INDEX id`,
        [],
        { write: true, idempotent: true },
      );
      return `created scratch table ${table}`;
    });
    if (!created) return report;
    try {
      const index = sqlIdentifier(`${table}_hnsw`);
      // The index must exist before the table has rows, as in the store (vectorTables.ts).
      report.hnswUsable = await timed('hnsw', async () => {
        await client.query(
          `CREATE INDEX ${index} ON ${quoted} USING HNSW (embedding vector_cosine_ops) WITH (dimension = 2, m = 16, ef_construction = 128, quantization = 'bf16')`,
          [],
          {
            write: true,
            idempotent: true,
            settings: client.vectorSettings,
          },
        );
        return 'HNSW index created';
      });
      const wrote = await timed('write', async () => {
        await client.query(`INSERT INTO ${quoted} (id, embedding) VALUES ($1::TEXT, [0.6, 0.8]::ARRAY(REAL))`, [
          'probe',
        ]);
        return 'inserted one row';
      });
      const read =
        wrote &&
        (await timed('read', async () => {
          const { rows } = await client.query(`SELECT id FROM ${quoted} WHERE id = $1`, ['probe']);
          if (rows.length !== 1) throw new MemoryError('PROVIDER_ERROR', `read back ${rows.length} rows instead of 1`);
          return 'read the row back';
        }));
      if (report.hnswUsable && wrote) {
        report.vectorSearchUsable = await timed('vector_search', async () => {
          const { rows } = await client.query(
            `SELECT v.id AS id FROM VECTOR_SEARCH(INDEX ${index}, target_vector => [0.6, 0.8]::ARRAY(DOUBLE PRECISION), top_k => 1) AS v`,
            [],
            {
              idempotent: false,
              settings: client.vectorSettings,
            },
          );
          if (rows[0]?.id !== 'probe')
            throw new MemoryError('PROVIDER_ERROR', 'VECTOR_SEARCH did not return the probe row');
          return 'VECTOR_SEARCH found the probe row';
        });
      }
      const deleted = await timed('delete', async () => {
        await client.query(`DELETE FROM ${quoted} WHERE id = $1::TEXT`, ['probe']);
        return 'deleted the row';
      });
      report.ok = wrote && read && deleted;
    } finally {
      await timed('delete', async () => {
        await client.query(`DROP TABLE IF EXISTS ${quoted}`, [], { write: true, idempotent: true });
        return `dropped scratch table ${table}`;
      });
    }
    return report;
  } finally {
    client.close();
  }
}

function failure(step: CheckStep['step'], ms: number, error: unknown, config: FireboltConfig): CheckStep {
  const message = error instanceof Error ? error.message : String(error);
  return { step, ok: false, ms, detail: message, advice: adviceFor(step, error, config) };
}

/** The usual fix for a failure, from its code, HTTP status and transport code. */
export function adviceFor(step: CheckStep['step'], error: unknown, config: FireboltConfig): string {
  const details = fireboltDetails(error);
  const text = error instanceof Error ? error.message : String(error);
  if (MemoryError.is(error, 'CONFIGURATION_ERROR')) {
    return config.kind === 'core'
      ? `Fix the Core URL or database name in the settings (${settingId('firebolt')}.* / FIREBOLT_CORE_URL, FIREBOLT_DATABASE).`
      : 'Check the account, engine and database names (FIREBOLT_ACCOUNT, FIREBOLT_ENGINE, FIREBOLT_DATABASE).';
  }
  if (MemoryError.is(error, 'UNAUTHORIZED') || details?.status === 401) {
    return 'Authentication failed: check the service account client id and secret, and that the service account is linked to a user in this account.';
  }
  if (details?.status === 403 || /permission|not authorized|access denied|privilege/iu.test(text)) {
    return `Permission denied during "${step}": grant the service account's role USAGE on the engine and database and CREATE/INSERT/DELETE on the database.`;
  }
  if (details?.status === 0) {
    const code = String(details.transport_code ?? '');
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return 'The host name does not resolve: check the URL (Core) or API endpoint (Cloud).';
    if (code === 'ECONNREFUSED') {
      return config.kind === 'core'
        ? `Nothing listens at ${config.url}: start Firebolt Core (docker run … -p 3473:3473 ghcr.io/firebolt-db/firebolt-core:preview-rc) or fix the URL.`
        : 'The API endpoint refused the connection: check FIREBOLT_API_ENDPOINT.';
    }
    return 'The request got no answer (timeout or dropped connection): check the network, proxy and URL.';
  }
  if (details?.status === 503 || /engine.*(stopped|not running|starting|suspended)/iu.test(text)) {
    return 'The engine is stopped or starting: start it (Cloud: START ENGINE or the console; engines may auto-start, try again in a minute).';
  }
  if (details?.status === 404)
    return 'The endpoint answered 404: check the URL (Core serves POST /) or the account name (Cloud).';
  if (step === 'hnsw' || step === 'vector_search') {
    return 'Vector search is not usable on this engine; the store falls back to exact cosine search, which is correct but slower on large collections.';
  }
  return 'See the server message above; run `fml firebolt check` again after fixing it.';
}

/** Lines for a terminal or an output channel. */
export function formatConnectionReport(report: ConnectionReport): string[] {
  const lines = [`Firebolt connection check: ${report.target}`];
  for (const step of report.steps) {
    lines.push(
      `  ${step.ok ? 'ok  ' : 'FAIL'} ${step.step.padEnd(13)} ${step.ms.toFixed(1).padStart(8)} ms  ${step.detail}`,
    );
    if (step.advice) lines.push(`       → ${step.advice}`);
  }
  lines.push(`  server version: ${report.serverVersion ?? 'unknown'}`);
  lines.push(
    `  HNSW index: ${report.hnswUsable ? 'usable' : 'not usable'}; VECTOR_SEARCH: ${report.vectorSearchUsable ? 'usable' : 'not usable (exact search will be used)'}`,
  );
  lines.push(report.ok ? 'Result: OK' : 'Result: FAILED');
  return lines;
}
