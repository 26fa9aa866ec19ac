import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');

interface Recalled {
  memories: Array<{
    memory_id: string;
    content: string;
    anchors?: Array<{ status: string; current?: { path: string } }>;
  }>;
}

/** fml serve --workspace DIR: the built CLI resolves anchors in the folder and checks them lazily at recall. */
describe('fml serve --workspace', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-cli-ws-data-'));
  const workspace = mkdtempSync(join(tmpdir(), 'fml-cli-ws-'));
  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('stores an anchored memory and reports the anchor changed once the code is rewritten', async () => {
    mkdirSync(join(workspace, 'lib'));
    const source =
      'pub fn checksum(data: &[u8]) -> u32 {\n    data.iter().fold(0u32, |acc, b| acc.wrapping_add(*b as u32))\n}\n';
    writeFileSync(join(workspace, 'lib/hash.rs'), source);
    const client = new Client({ name: 'cli-ws-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'serve', '--stdio', '--data-dir', dataDir, '--user', 'ws', '--workspace', workspace],
        stderr: 'pipe',
      }),
    );
    try {
      const stored = await client.callTool({
        name: 'store_memory',
        arguments: {
          content: 'The checksum is a plain wrapping byte sum, not CRC32.',
          memory_category: 'episodic',
          memory_subtype: 'decision',
          anchor: 'lib/hash.rs#checksum',
        },
      });
      assert.ok(!stored.isError, JSON.stringify(stored.content));
      const fresh = (
        await client.callTool({
          name: 'recall_memories',
          arguments: { query: 'checksum', entities: ['file:lib/hash.rs'] },
        })
      ).structuredContent as Recalled;
      assert.equal(fresh.memories[0]?.anchors?.[0].status, 'fresh');

      writeFileSync(
        join(workspace, 'lib/hash.rs'),
        'pub fn checksum(data: &[u8]) -> u32 {\n    let mut hasher = crc32fast::Hasher::new();\n    hasher.update(data);\n    hasher.finalize()\n}\n',
      );
      const later = new Date(Date.now() + 10_000);
      utimesSync(join(workspace, 'lib/hash.rs'), later, later);
      const answer = await client.callTool({ name: 'recall_memories', arguments: { query: 'checksum' } });
      const changed = answer.structuredContent as Recalled;
      assert.equal(changed.memories[0]?.anchors?.[0].status, 'changed');
      const text = (answer.content as Array<{ text: string }>)[0].text;
      assert.match(
        text,
        /\[refers to code changed since it was stored \(lib\/hash\.rs checksum\)\] The checksum is a plain wrapping byte sum/,
      );
    } finally {
      await client.close();
    }
  });

  it('refuses a --workspace that is not a folder', async () => {
    const child = spawn(
      process.execPath,
      [cli, 'serve', '--stdio', '--data-dir', dataDir, '--workspace', join(workspace, 'missing')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(err, /INVALID_INPUT: --workspace .*missing: no such folder/);
  });
});
