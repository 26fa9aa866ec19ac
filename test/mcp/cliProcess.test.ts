import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readJsonResource } from '../support/testCore.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');

async function stdioClient(dataDir: string): Promise<Client> {
  const client = new Client({ name: 'cli-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'serve', '--stdio', '--data-dir', dataDir],
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('the built fml CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-cli-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps memories across a restart of the stdio server', async () => {
    const first = await stdioClient(dataDir);
    const stored = await first.callTool({
      name: 'store_memory',
      arguments: {
        user_id: 'p',
        content: 'Persistence survives restarts',
        memory_category: 'semantic',
        memory_subtype: 'project',
      },
    });
    assert.ok(!stored.isError);
    await first.close();
    const second = await stdioClient(dataDir);
    const recalled = await second.callTool({
      name: 'recall_memories',
      arguments: { user_id: 'p', query: 'persistence restarts' },
    });
    assert.equal(
      (recalled.structuredContent as { memories: Array<{ content: string }> }).memories[0]?.content,
      'Persistence survives restarts',
    );
    await second.close();
  });

  it('loses nothing when two server processes write the same data directory at once', async () => {
    const [a, b] = await Promise.all([stdioClient(dataDir), stdioClient(dataDir)]);
    const writes = (client: Client, label: string) =>
      Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          client.callTool({
            name: 'store_memory',
            arguments: {
              user_id: 'shared',
              content: `Concurrent write ${label}-${index} token${label}${index}`,
              memory_category: 'episodic',
              memory_subtype: 'event',
            },
          }),
        ),
      );
    const results = [...(await writes(a, 'a')), ...(await writes(b, 'b'))];
    await Promise.all([writes(a, 'c'), writes(b, 'd')]);
    assert.ok(results.every((result) => !result.isError));
    assert.equal((await readJsonResource<{ memories: number }>(a, 'memory://shared/stats')).memories, 160);
    const seenByB = await b.callTool({
      name: 'recall_memories',
      arguments: { user_id: 'shared', query: 'tokenc7', limit: 5 },
    });
    assert.equal(
      (seenByB.structuredContent as { memories: Array<{ content: string }> }).memories[0]?.content,
      'Concurrent write c-7 tokenc7',
      'a write of process A is found by process B',
    );
    await Promise.all([a.close(), b.close()]);
  });

  /** Starts `fml serve --http` with the given extra flags and returns the child and what it printed. */
  async function startHttp(
    extra: string[],
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<{ child: ReturnType<typeof spawn>; out: string }> {
    const child = spawn(process.execPath, [cli, 'serve', '--http', '--port', '0', '--data-dir', dataDir, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no endpoint printed: ${out}`)), 15_000);
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('Press Ctrl+C')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return { child, out };
  }

  async function stop(child: ReturnType<typeof spawn>): Promise<void> {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  /** Connects an MCP client exactly as the printed config says: the printed URL and header, nothing else. */
  async function clientFromPrintedConfig(out: string): Promise<Client> {
    const config = JSON.parse(/\{ "type": "http".*\}/.exec(out)![0]) as {
      url: string;
      headers: Record<string, string>;
    };
    const client = new Client({ name: 'printed-config', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }),
    );
    return client;
  }

  it('prints how to connect and refuses a taken port', async () => {
    const { child, out } = await startHttp([]);
    const port = Number(/127\.0\.0\.1:(\d+)\/mcp/.exec(out)?.[1]);
    assert.ok(port > 0);
    assert.match(out, /Authorization: Bearer/);
    // The printed OpenSpec address answers discovery with the printed token, and nothing without it.
    const openSpec = /openspec:\s+(\S+)/.exec(out)?.[1] as string;
    const token = /token:\s+(\S+)/.exec(out)?.[1] as string;
    assert.equal(openSpec, `http://127.0.0.1:${port}/openspec/v1/knowledge`);
    const discovery = await fetch(openSpec, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(discovery.status, 200);
    assert.equal(((await discovery.json()) as { protocolVersion: string }).protocolVersion, '1.0.0');
    assert.equal((await fetch(openSpec)).status, 401);
    const second = spawn(process.execPath, [cli, 'serve', '--http', '--port', String(port), '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    second.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(err, /CONFIGURATION_ERROR: Port \d+ on 127\.0\.0\.1 is already in use/);
    await stop(child);
  });

  it('binds the HTTP server to the user its panel shows, so the printed config works as printed', async () => {
    const { child, out } = await startHttp([], { ...process.env, FML_USER: 'printed_user' });
    after(() => child.kill('SIGKILL'));
    assert.match(out, /memories of user "printed_user"/);
    assert.match(out, /user: +bound to "printed_user"/);
    const client = await clientFromPrintedConfig(out);
    const stored = await client.callTool({
      name: 'store_memory',
      arguments: {
        content: 'The staging cluster runs on arm64 nodes.',
        memory_category: 'semantic',
        memory_subtype: 'environment',
      },
    });
    assert.equal(stored.isError, undefined, JSON.stringify(stored.content));
    const recalled = await client.callTool({ name: 'recall_memories', arguments: { query: 'staging cluster arm64' } });
    const memories = (recalled.structuredContent as { memories: Array<{ content: string }> }).memories;
    assert.equal(memories[0]?.content, 'The staging cluster runs on arm64 nodes.');
    const other = await client.callTool({
      name: 'recall_memories',
      arguments: { user_id: 'someone_else', query: 'staging' },
    });
    assert.equal(other.isError, true, 'a bound server refuses another user');
    assert.match(JSON.stringify(other.content), /UNAUTHORIZED/);
    await client.close();
    await stop(child);
  });

  // Runs after the bound test: the memory that test stored through the printed config belongs to printed_user.
  it('serves every user with --any-user, and then needs user_id', async () => {
    const { child, out } = await startHttp(['--any-user']);
    after(() => child.kill('SIGKILL'));
    assert.match(out, /user: +any: every tool call names its user_id/);
    const client = await clientFromPrintedConfig(out);
    const missing = await client.callTool({ name: 'recall_memories', arguments: { query: 'staging' } });
    assert.equal(missing.isError, true);
    assert.match(JSON.stringify(missing.content), /MISSING_IDENTIFIER/);
    const named = await client.callTool({
      name: 'recall_memories',
      arguments: { user_id: 'printed_user', query: 'staging cluster arm64' },
    });
    assert.equal(
      (named.structuredContent as { memories: Array<{ content: string }> }).memories[0]?.content,
      'The staging cluster runs on arm64 nodes.',
    );
    await client.close();
    await stop(child);
  });

  it('refuses --any-user together with --user', async () => {
    const child = spawn(
      process.execPath,
      [cli, 'serve', '--http', '--any-user', '--user', 'a', '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(err, /INVALID_INPUT: --any-user goes with --http and without --user/);
  });
});
