import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseArgs } from 'node:util';
import { MemoryError } from '../core/domain/errors.ts';
import { createMcpServer } from '../mcp/createMcpServer.ts';
import { startHttpServer } from '../mcp/httpServer.ts';
import { createRuntime } from '../runtime/createRuntime.ts';
import { defaultDataDir, embeddingConfigFromEnv, type RuntimeConfig } from '../runtime/runtimeConfig.ts';
import { loadOrCreateToken } from '../runtime/serverToken.ts';

const USAGE = `fml — Firebolt Memory Layer

Usage:
  fml serve --http  [--port N] [--data-dir DIR] [--user ID] [--project ID] [--rotate-token] [--rate-limit N]
  fml serve --stdio [--data-dir DIR] [--user ID] [--project ID]

Environment:
  FML_DATA_DIR               data directory (default ~/.firebolt-memory)
  FML_EMBEDDING_PROVIDER     none | openai | hashing-test (default: openai when a key is set, else none)
  FML_EMBEDDING_API_KEY      key for the OpenAI-compatible endpoint (or OPENAI_API_KEY)
  FML_EMBEDDING_BASE_URL     any OpenAI-compatible base URL (Ollama, LM Studio, ...)
  FML_EMBEDDING_MODEL        default text-embedding-3-small
  FML_EMBEDDING_DIMENSIONS   requested vector size
  FML_TOKEN                  bearer token for --http (default: kept in DATA_DIR/http-token)
`;

const DEFAULT_PORT = 7077;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      http: { type: 'boolean' },
      stdio: { type: 'boolean' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      user: { type: 'string' },
      project: { type: 'string' },
      'rotate-token': { type: 'boolean' },
      'rate-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command !== 'serve') throw new MemoryError('INVALID_INPUT', `Unknown command "${command}".\n\n${USAGE}`);
  if (values.http === values.stdio) throw new MemoryError('INVALID_INPUT', `Pass exactly one of --http or --stdio.\n\n${USAGE}`);

  const dataDir = values['data-dir'] ?? defaultDataDir();
  const config: RuntimeConfig = {
    dataDir,
    backend: { kind: 'sqlite', dataDir },
    embeddings: embeddingConfigFromEnv(),
    ...(values.user ? { defaultUserId: values.user } : {}),
    ...(values.project ? { defaultProjectId: values.project } : {}),
  };
  const core = await createRuntime(config);
  const context = { core, ...(config.defaultUserId ? { defaultUserId: config.defaultUserId } : {}) };
  const shutdown = async (): Promise<void> => {
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());

  if (values.stdio) {
    // stdout belongs to the protocol; everything human goes to stderr.
    await createMcpServer(context).connect(new StdioServerTransport());
    console.error(`[fml] MCP server on stdio; data in ${dataDir}; store ${core.store.kind}; embeddings ${core.embeddings.model ?? 'none (full-text ranking)'}`);
    return;
  }

  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new MemoryError('INVALID_INPUT', `--port must be a whole number from 0 to 65535; got "${values.port}".`);
  const perMinute = values['rate-limit'] === undefined ? 6000 : Number(values['rate-limit']);
  const token = process.env.FML_TOKEN ?? loadOrCreateToken(dataDir, values['rotate-token'] ?? false);
  const server = await startHttpServer(context, { port, token, rateLimit: { perMinute, burst: Math.max(20, Math.ceil(perMinute / 10)) } });
  console.log(`Firebolt Memory Layer MCP server (Streamable HTTP)
  endpoint:   ${server.mcpUrl}
  token:      ${token}
  data:       ${dataDir} (store: ${core.store.kind})
  embeddings: ${core.embeddings.model ?? 'none — full-text ranking (set FML_EMBEDDING_API_KEY to add semantic recall)'}

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
