import { TiktokenCounter } from './src/core/tokens/tokenCounter.ts';
import { createTestCore } from './test/support/testCore.ts';
import { listTools } from './src/mcp/createMcpServer.ts';
const t = await createTestCore();
const c = new TiktokenCounter();
let total = 0;
for (const tool of listTools({ core: t.core })) {
  const n = c.count(tool.name) + c.count(tool.description ?? '') + c.count(JSON.stringify(tool.inputSchema));
  total += n;
  console.log(n, tool.name, '|', tool.description);
  if (process.argv[2] === tool.name || process.argv[2] === 'all') console.log(JSON.stringify(tool.inputSchema));
}
console.log('total', total);
await t.cleanup();
