import { z } from 'zod';
import { toToolJsonSchema } from './toolJsonSchema.ts';

/** The input and output object schemas of one tool, as the server validates them. */
export interface ToolSchemas {
  input: z.ZodObject;
  output: z.ZodObject;
}

/** What a client is shown of one tool's schemas in tools/list. */
export interface ToolJsonSchemas {
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

interface ShapedTool {
  input: z.ZodRawShape;
  output: z.ZodRawShape;
}

const built = new WeakMap<ShapedTool, ToolSchemas>();
const listed = new WeakMap<ShapedTool, Map<string, ToolJsonSchemas>>();

/**
 * One schema object per tool for the whole process. Every HTTP session has its own server; built
 * per server, thousands of sessions would hold thousands of copies, each compiling its own parser.
 */
export function schemasOf(tool: ShapedTool): ToolSchemas {
  let schemas = built.get(tool);
  if (schemas === undefined) {
    schemas = { input: z.object(tool.input), output: z.object(tool.output) };
    built.set(tool, schemas);
  }
  return schemas;
}

/**
 * The JSON schemas of a tool as listed, without the input fields in `hidden` (identifiers the
 * server already binds). Hidden fields are still accepted and checked when a client sends them:
 * only the listing, which every agent request carries, leaves them out.
 */
export function jsonSchemasOf(tool: ShapedTool, hidden: readonly string[]): ToolJsonSchemas {
  let byHidden = listed.get(tool);
  if (byHidden === undefined) listed.set(tool, (byHidden = new Map()));
  const key = hidden.join(',');
  let schemas = byHidden.get(key);
  if (schemas === undefined) {
    const shown = Object.fromEntries(Object.entries(tool.input).filter(([field]) => !hidden.includes(field)));
    schemas = {
      inputSchema: toToolJsonSchema(z.object(shown), 'input'),
      outputSchema: toToolJsonSchema(schemasOf(tool).output, 'output'),
    };
    byHidden.set(key, schemas);
  }
  return schemas;
}
