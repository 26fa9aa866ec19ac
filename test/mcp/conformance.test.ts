import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { startBearerProxy, type BearerProxy } from '../support/bearerProxy.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

const root = new URL('../..', import.meta.url).pathname;
const SUITE = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const NOT_APPLICABLE = join(root, 'test', 'mcp', 'conformance-not-applicable.yml');
const TOKEN = 'conformance-token-0123456789abcdef';

/** The scenarios that apply to the capabilities this server declares (tools, resources) and its transport. */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

function runSuite(url: string, outputDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [SUITE, 'server', '--url', url, '--expected-failures', NOT_APPLICABLE, '--output-dir', outputDir],
      { cwd: outputDir },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the official MCP conformance suite against the HTTP server', () => {
  let test: TestCore;
  let server: RunningHttpServer;
  let proxy: BearerProxy;
  let outputDir: string;
  before(async () => {
    test = await createTestCore();
    server = await startHttpServer({ core: test.core }, { port: 0, token: TOKEN });
    // The suite cannot send a bearer token; the proxy adds it and changes nothing else.
    proxy = await startBearerProxy(server, TOKEN);
    outputDir = mkdtempSync(join(tmpdir(), 'fml-conformance-'));
  });
  after(async () => {
    await proxy.close();
    await server.close();
    await test.cleanup();
    rmSync(outputDir, { recursive: true, force: true });
  });

  it('passes every server scenario that applies, and fails only the ones listed as not applying', async () => {
    const { code, output } = await runSuite(proxy.url, outputDir);
    assert.equal(code, 0, output);
    for (const scenario of APPLICABLE)
      assert.match(output, new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`), `${scenario} passed:\n${output}`);
  });
});
