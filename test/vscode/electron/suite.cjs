// Runs inside the VS Code extension host (loaded by @vscode/test-electron through run.ts), so it is
// CommonJS and may require('vscode'). It checks what the code-server suite checks that does not need
// a browser: activation, the MCP endpoint and a tool call, capture of a file and its diagnostic, the
// commands (called with arguments instead of through the palette), and a settings change.
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');

const EXTENSION_ID = 'firebolt-memory.firebolt-memory-layer';

async function waitFor(what, probe, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

function state() {
  try {
    return JSON.parse(readFileSync(join(process.env.FML_E2E_DIR, 'extension-state.json'), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT' || error instanceof SyntaxError) return null;
    throw error;
  }
}

/** A minimal Streamable HTTP MCP client: initialize once, then tools/call with the session id. */
async function mcpClient(current) {
  const headers = { Authorization: `Bearer ${current.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const post = async (body, sessionId) => {
    const response = await fetch(current.mcpUrl, { method: 'POST', headers: sessionId ? { ...headers, 'Mcp-Session-Id': sessionId } : headers, body: JSON.stringify(body) });
    const text = await response.text();
    const data = text.startsWith('event:') || text.includes('\ndata: ') ? JSON.parse(text.split('\n').find((line) => line.startsWith('data: ')).slice(6)) : text ? JSON.parse(text) : null;
    return { response, data };
  };
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fml-electron', version: '1' } } });
  const sessionId = init.response.headers.get('mcp-session-id');
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
  let id = 10;
  const call = async (name, args) => {
    const { data } = await post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } }, sessionId);
    assert.ok(!data.result.isError, JSON.stringify(data.result.content));
    return data.result.structuredContent;
  };
  const read = async (uri) => JSON.parse((await post({ jsonrpc: '2.0', id: id++, method: 'resources/read', params: { uri } }, sessionId)).data.result.contents[0].text);
  return { call, read };
}

exports.run = async function run() {
  await vscode.extensions.getExtension(EXTENSION_ID).activate();
  let current = await waitFor('activation', () => state()?.mcpUrl && state());
  assert.equal(current.projectId, 'git:github.com/fml-e2e/demo-app');
  const { call, read } = await mcpClient(current);

  const document = await vscode.workspace.openTextDocument(join(process.env.FML_E2E_WORKSPACE, 'broken.json'));
  await vscode.window.showTextDocument(document);
  const editorItem = async (pattern) => (await call('get_working_memory', { session_id: current.sessionId })).items.find((item) => pattern.test(item.content));
  await waitFor('the active file item', () => editorItem(/^Active file: broken\.json/));
  await waitFor('the diagnostics item', () => editorItem(/^Problems: [1-9]/), 45000);

  await vscode.commands.executeCommand('memory.remember', 'We deploy the demo app with blue-green releases');
  const recalled = await call('recall_memories', { query: 'blue-green releases', min_similarity: 0 });
  assert.ok(recalled.memories.some((memory) => memory.content.includes('blue-green')));
  const exportPath = join(process.env.FML_E2E_DIR, 'export.json');
  const exported = await vscode.commands.executeCommand('memory.export', exportPath);
  assert.ok(exported.count >= 1);
  const imported = await vscode.commands.executeCommand('memory.import', exportPath);
  assert.equal(imported.created, 0);
  const checkpoint = await vscode.commands.executeCommand('memory.checkpoint');
  assert.equal(typeof checkpoint.memories_created, 'number');
  const cleared = await vscode.commands.executeCommand('memory.clearWorkingMemory');
  assert.equal(cleared.success, true);
  const times = await vscode.commands.executeCommand('memory.showActivationTime');
  assert.ok(times.activateMs < 500, `activate() took ${times.activateMs} ms`);

  await vscode.workspace.getConfiguration().update('fireboltMemory.workingMemory.maxTokens', 4000, vscode.ConfigurationTarget.Global);
  await waitFor('the new budget', async () => (await read(`memory://${current.sessionId}/info`)).max_tokens === 4000);
};
