import { createTestCore } from './test/support/testCore.ts';
import { listTools } from './src/mcp/createMcpServer.ts';
import { toolListCost } from './src/mcp/toolListCost.ts';
const t = await createTestCore();
const c = toolListCost(listTools({ core: t.core }));
console.log(c.definitionTokens, JSON.stringify(c.perTool));
await t.cleanup();
