import type { Tool } from './mcpSdk.ts';
import { TiktokenCounter, type TokenCounter } from '../core/api/textApi.ts';

/** What a tools/list costs an agent, in cl100k tokens. */
export interface ToolListCost {
  tools: number;
  /** Name, description and input schema: what agents put in front of the model on every request. */
  definitionTokens: number;
  /** The whole listing, output schemas and annotations included: what travels on the wire. */
  listingTokens: number;
  perTool: Record<string, number>;
}

/**
 * Tokens of a tool listing as a model sees it: each tool as the JSON of its name, description and
 * input schema (the shape function-calling APIs take), summed. Used by the budget test and `npm run bench`.
 */
export function toolListCost(tools: readonly Tool[], counter: TokenCounter = new TiktokenCounter()): ToolListCost {
  const perTool: Record<string, number> = {};
  let definitionTokens = 0;
  let listingTokens = 0;
  for (const tool of tools) {
    const tokens = counter.count(
      JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
    );
    perTool[tool.name] = tokens;
    definitionTokens += tokens;
    listingTokens += counter.count(JSON.stringify(tool));
  }
  return { tools: tools.length, definitionTokens, listingTokens, perTool };
}
