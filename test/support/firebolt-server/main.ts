import { parseArgs } from 'node:util';
import { startFireboltTestServer } from './server.ts';

/** `node test/support/firebolt-server/main.ts --port 3473 [--data-dir DIR] [--no-vector-search]` */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3473' },
    'data-dir': { type: 'string' },
    'no-vector-search': { type: 'boolean', default: false },
  },
});

const server = await startFireboltTestServer({
  port: Number(values.port),
  ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
  vectorSearch: !values['no-vector-search'],
});
process.stdout.write(`Firebolt test server listening on ${server.url}\n`);
const stop = (): void => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
