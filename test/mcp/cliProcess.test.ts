import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readJsonResource } from '../support/testCore.ts';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');

async function stdioClient(dataDir: string): Promise<Client> {
  const client = new Client({ name: 'cli-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'serve', '--stdio', '--data-dir', dataDir], stderr: 'pipe' }));
  return client;
}

describe('the built fml CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-cli-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps memories across a restart of the stdio server', async () => {
    const first = await stdioClient(dataDir);
    const stored = await first.callTool({ name: 'store_memory', arguments: { user_id: 'p', content: 'Persistence survives restarts', memory_category: 'semantic', memory_subtype: 'project' } });
    assert.ok(!stored.isError);
    await first.close();
    const second = await stdioClient(dataDir);
    const recalled = await second.callTool({ name: 'recall_memories', arguments: { user_id: 'p', query: 'persistence restarts' } });
    assert.equal((recalled.structuredContent as { memories: Array<{ content: string }> }).memories[0]?.content, 'Persistence survives restarts');
    await second.close();
  });

  it('loses nothing when two server processes write the same data directory at once', async () => {
    const [a, b] = await Promise.all([stdioClient(dataDir), stdioClient(dataDir)]);
    const writes = (client: Client, label: string) =>
      Promise.all(Array.from({ length: 40 }, (_, index) => client.callTool({ name: 'store_memory', arguments: { user_id: 'shared', content: `Concurrent write ${label}-${index} token${label}${index}`, memory_category: 'episodic', memory_subtype: 'event' } })));
    const results = [...(await writes(a, 'a')), ...(await writes(b, 'b'))];
    await Promise.all([writes(a, 'c'), writes(b, 'd')]);
    assert.ok(results.every((result) => !result.isError));
    assert.equal((await readJsonResource<{ memories: number }>(a, 'memory://shared/stats')).memories, 160);
    const seenByB = await b.callTool({ name: 'recall_memories', arguments: { user_id: 'shared', query: 'tokenc7', limit: 5 } });
    assert.equal((seenByB.structuredContent as { memories: Array<{ content: string }> }).memories[0]?.content, 'Concurrent write c-7 tokenc7', 'a write of process A is found by process B');
    await Promise.all([a.close(), b.close()]);
  });

  it('prints how to connect and refuses a taken port', async () => {
    const child = spawn(process.execPath, [cli, 'serve', '--http', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no endpoint printed: ${out}`)), 15_000);
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('Press Ctrl+C')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
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
    const second = spawn(process.execPath, [cli, 'serve', '--http', '--port', String(port), '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    second.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(err, /CONFIGURATION_ERROR: Port \d+ on 127\.0\.0\.1 is already in use/);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
  });
});
