import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import type { LayerDefaults } from '../core/domain/layers.ts';
import { MemoryError } from '../core/domain/errors.ts';
import { requireId } from '../core/validation.ts';
import { rateLimitOf } from '../http/rateLimiter.ts';
import { USAGE } from './usage.ts';
// Each command loads the modules only it uses (the MCP SDK and its schemas, the HTTP server, the
// panel, Firebolt checks) when it runs: the memory process (`fml daemon`) runs from this bundle and
// its first recall should not wait for module initialisation it never needs.
import { DEFAULT_GRACE_MS, runDaemon } from '../daemon/runDaemon.ts';
import { backendConfigFromEnv, describeBackend } from '../runtime/backendSelection.ts';
import { extractorFromEnv } from '../models/extractorFromEnv.ts';
import { enricherFromEnv } from '../models/enricherFromEnv.ts';
import { createRuntime } from '../runtime/createRuntime.ts';
import { checkedEmbeddingConfig, defaultDataDir, type RuntimeConfig } from '../runtime/runtimeConfig.ts';
import { loadOrCreateToken } from '../runtime/serverToken.ts';
import { agentsTargetOf, workspaceProjectId } from '../runtime/repoMemories.ts';

const DEFAULT_PORT = 7077;

/** The user an HTTP server shows in its panel and, unless --any-user, is bound to. */
function defaultHttpUser(): string {
  return process.env.FML_USER || userInfo().username;
}

/** Only the identifiers actually given; each is validated like any id. */
function layerDefaultsOf(values: LayerDefaults): LayerDefaults {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value)
      .map(([field, value]) => [field, requireId(value, field)]),
  );
}

/** The enrichment flags win over FML_ENRICHMENT_*; either flag turns the OpenAI-compatible enricher on. */
function enrichmentEnv(
  values: { 'enrichment-base-url'?: string; 'enrichment-model'?: string },
  env: NodeJS.ProcessEnv,
): Record<string, string | undefined> {
  if (values['enrichment-base-url'] === undefined && values['enrichment-model'] === undefined) return env;
  return {
    ...env,
    FML_ENRICHMENT_PROVIDER: 'openai',
    ...(values['enrichment-base-url'] !== undefined ? { FML_ENRICHMENT_BASE_URL: values['enrichment-base-url'] } : {}),
    ...(values['enrichment-model'] !== undefined ? { FML_ENRICHMENT_MODEL: values['enrichment-model'] } : {}),
  };
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      http: { type: 'boolean' },
      stdio: { type: 'boolean' },
      'admin-tools': { type: 'boolean' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      user: { type: 'string' },
      'any-user': { type: 'boolean' },
      project: { type: 'string' },
      'read-project': { type: 'string', multiple: true },
      agent: { type: 'string' },
      team: { type: 'string' },
      org: { type: 'string' },
      company: { type: 'string' },
      'rotate-token': { type: 'boolean' },
      'rate-limit': { type: 'string' },
      backend: { type: 'string' },
      to: { type: 'string' },
      'grace-ms': { type: 'string' },
      workspace: { type: 'string' },
      'repo-memories': { type: 'boolean' },
      'agents-md': { type: 'boolean' },
      file: { type: 'string' },
      budget: { type: 'string' },
      'enrichment-base-url': { type: 'string' },
      'enrichment-model': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === 'migrate') {
    const { runMigrate } = await import('./migrateCommand.ts');
    process.exitCode = await runMigrate({
      to: values.to,
      dataDir: values['data-dir'] ?? defaultDataDir(),
      backend: values.backend,
      write: (line) => console.log(line),
    });
    return;
  }
  if (command === 'firebolt') {
    if (positionals[1] !== 'check')
      throw new MemoryError(
        'INVALID_INPUT',
        `Unknown firebolt subcommand "${positionals[1] ?? ''}"; did you mean "fml firebolt check"?`,
      );
    const { runFireboltCheck } = await import('./fireboltCheckCommand.ts');
    process.exitCode = await runFireboltCheck({
      dataDir: values['data-dir'] ?? defaultDataDir(),
      backend: values.backend,
      write: (line) => console.log(line),
    });
    return;
  }
  if (command === 'daemon') {
    const graceMs = values['grace-ms'] === undefined ? DEFAULT_GRACE_MS : Number(values['grace-ms']);
    if (!Number.isInteger(graceMs) || graceMs < 0)
      throw new MemoryError(
        'INVALID_INPUT',
        `--grace-ms must be a whole number of milliseconds; got "${values['grace-ms']}".`,
      );
    await runDaemon({ dataDir: values['data-dir'] ?? defaultDataDir(), graceMs });
    return;
  }
  if (command === 'export') {
    const { runExportAgentsMd } = await import('./exportAgentsCommand.ts');
    await runExportAgentsMd(values);
    return;
  }
  if (command !== 'serve') throw new MemoryError('INVALID_INPUT', `Unknown command "${command}".\n\n${USAGE}`);
  if (values.http === values.stdio)
    throw new MemoryError('INVALID_INPUT', `Pass exactly one of --http or --stdio.\n\n${USAGE}`);

  if (values['any-user'] && (values.user !== undefined || values.stdio)) {
    throw new MemoryError('INVALID_INPUT', `--any-user goes with --http and without --user.\n\n${USAGE}`);
  }
  if (values['repo-memories'] && values.workspace === undefined)
    throw new MemoryError('INVALID_INPUT', `--repo-memories shares the memories of a workspace: add --workspace DIR.`);
  const { requireWorkspaceDir } = await import('./exportAgentsCommand.ts');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const boundUser = values.user ?? (values.http && !values['any-user'] ? defaultHttpUser() : undefined);
  const embeddings = await checkedEmbeddingConfig();
  // The Ollama startup check says what it found (stderr: stdout is the stdio transport).
  if (embeddings.notice) console.error(`[fml] ${embeddings.notice}`);
  const config: RuntimeConfig = {
    dataDir,
    backend: backendConfigFromEnv(dataDir, values.backend),
    embeddings: embeddings.config,
    ...(embeddings.check ? { embeddingCheck: embeddings.check } : {}),
    ...(boundUser ? { defaultUserId: requireId(boundUser, 'user') } : {}),
    ...(values.project ? { defaultProjectId: values.project } : {}),
    ...(values.workspace !== undefined ? { workspaceDir: requireWorkspaceDir(values.workspace) } : {}),
    layerDefaults: layerDefaultsOf({
      agent_id: values.agent ?? process.env.FML_AGENT_ID,
      team_id: values.team ?? process.env.FML_TEAM_ID,
      org_id: values.org ?? process.env.FML_ORG_ID,
      company_id: values.company ?? process.env.FML_COMPANY_ID,
    }),
  };
  const core = await createRuntime(config);
  // Content naming a declared symbol is anchored from the workspace index: built now, off the request path.
  core.anchors
    ?.warmUp()
    .catch((error: unknown) =>
      console.error(
        '[fml] indexing the workspace for anchors failed:',
        error instanceof Error ? error.message : String(error),
      ),
    );
  if (values['repo-memories'] && config.workspaceDir) {
    const projectId = config.defaultProjectId ?? (await workspaceProjectId(config.workspaceDir));
    await core.shareProjectMemories({
      workspace_dir: config.workspaceDir,
      project_id: projectId,
      ...(values['agents-md'] ? { agents_file: agentsTargetOf(values) } : {}),
    });
    console.error(`[fml] project memories of "${projectId}" shared in ${config.workspaceDir}/.memory/`);
  }
  // Extraction of promoted working memory runs in the background (rules offline, or the model of FML_EXTRACTION_*).
  const extraction = await core.startExtraction(extractorFromEnv(process.env));
  const enricher = enricherFromEnv(enrichmentEnv(values, process.env));
  if (enricher) {
    core.startEnrichment(enricher);
    console.error(`[fml] stored memories get search keys from ${enricher.name} in the background`);
  }
  if (config.defaultUserId) {
    const userId = config.defaultUserId;
    // Daily decay, consolidation and pruning of the bound user's memories (run_daily_maintenance on demand).
    core.startMaintenance({ users: () => [userId] });
    extraction
      .resumePending(config.defaultUserId)
      .catch((error: unknown) =>
        console.error(
          '[fml] resuming pending extraction failed:',
          error instanceof Error ? error.message : String(error),
        ),
      );
  }
  const context = {
    core,
    adminTools: values['admin-tools'] ?? false,
    ...(config.defaultUserId ? { defaultUserId: config.defaultUserId } : {}),
    ...(values['read-project'] ? { readableProjectIds: values['read-project'] } : {}),
  };
  const shutdown = async (): Promise<void> => {
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());

  if (values.stdio) {
    // stdout belongs to the protocol; everything human goes to stderr.
    const [{ createMcpServer }, { LineStdioTransport }] = await Promise.all([
      import('../mcp/createMcpServer.ts'),
      import('../mcp/stdioTransport.ts'),
    ]);
    await createMcpServer(context).connect(new LineStdioTransport());
    console.error(
      `[fml] MCP server on stdio; data in ${dataDir}; store ${describeBackend(config.backend)}; embeddings ${core.embeddingModel ?? 'none (full-text ranking)'}`,
    );
    return;
  }

  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new MemoryError('INVALID_INPUT', `--port must be a whole number from 0 to 65535; got "${values.port}".`);
  const perMinute = values['rate-limit'] === undefined ? 6000 : Number(values['rate-limit']);
  const token = process.env.FML_TOKEN ?? loadOrCreateToken(dataDir, values['rotate-token'] ?? false);
  const [{ startHttpServer }, { startPanelOverHttp }, { OPENSPEC_BASE }] = await Promise.all([
    import('../http/httpServer.ts'),
    import('../panel/servePanel.ts'),
    import('../openspec/discovery.ts'),
  ]);
  const panel = startPanelOverHttp(core, {
    token,
    userId: config.defaultUserId ?? defaultHttpUser(),
    storeDescription: describeBackend(config.backend),
    entryFile: process.argv[1],
  });
  const server = await startHttpServer(context, {
    port,
    token,
    rateLimit: rateLimitOf(perMinute),
    extraRoutes: panel.routes.handle,
  });
  console.log(`Firebolt Memory Layer MCP server (Streamable HTTP)
  endpoint:   ${server.mcpUrl}
  panel:      ${server.url}/?token=${token}  (memories of user "${panel.userId}")
  openspec:   ${server.url}${OPENSPEC_BASE}  (seed 001 knowledge-provider endpoints, same token)
  user:       ${config.defaultUserId ? `bound to "${config.defaultUserId}": tools may omit user_id (--any-user serves every user)` : 'any: every tool call names its user_id'}
  token:      ${token}
  data:       ${dataDir} (store: ${describeBackend(config.backend)})
  embeddings: ${core.embeddingModel ?? 'none — full-text ranking (set FML_EMBEDDING_API_KEY to add semantic recall)'}

Connect a client with the header "Authorization: Bearer <token>", for example in an MCP client config:
  { "type": "http", "url": "${server.mcpUrl}", "headers": { "Authorization": "Bearer ${token}" } }
Press Ctrl+C to stop.`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (MemoryError.is(error)) {
    console.error(`fml: ${error.code}: ${error.message}`);
  } else {
    console.error('fml: unexpected failure:', error);
  }
  process.exit(1);
});
