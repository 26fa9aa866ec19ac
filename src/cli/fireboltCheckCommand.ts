import { MemoryError } from '../core/domain/errors.ts';
import { backendConfigFromEnv } from '../runtime/backendSelection.ts';
import { fireboltConfigOf } from '../runtime/createRuntime.ts';
import { checkFireboltConnection, formatConnectionReport } from '../stores/firebolt/connectionCheck.ts';

/**
 * `fml firebolt check`: the configured Firebolt backend (--backend / FML_BACKEND and the
 * FIREBOLT_* variables, as for serve) checked end to end. Returns the exit code: 0 when it
 * connected and the write/read/delete round trip worked, 1 otherwise.
 */
export async function runFireboltCheck(options: {
  dataDir: string;
  backend: string | undefined;
  write: (line: string) => void;
}): Promise<number> {
  const requested =
    options.backend ?? (process.env.FML_BACKEND?.startsWith('firebolt') ? process.env.FML_BACKEND : 'firebolt-core');
  const backend = backendConfigFromEnv(options.dataDir, requested);
  if (backend.kind === 'sqlite')
    throw new MemoryError('CONFIGURATION_ERROR', 'fml firebolt check needs --backend firebolt-core or firebolt-cloud.');
  const report = await checkFireboltConnection(fireboltConfigOf(backend));
  for (const line of formatConnectionReport(report)) options.write(line);
  return report.ok ? 0 : 1;
}
