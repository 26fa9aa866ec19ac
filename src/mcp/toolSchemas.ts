import { objectFromShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { z } from 'zod';

/** The input and output object schemas of one tool, as the SDK validates them. */
export interface ToolSchemas {
  input: ReturnType<typeof objectFromShape>;
  output: ReturnType<typeof objectFromShape>;
}

interface ShapedTool {
  input: z.ZodRawShape;
  output: z.ZodRawShape;
}

const built = new WeakMap<ShapedTool, ToolSchemas>();

/**
 * One schema object per tool for the whole process. Given a raw shape, the SDK builds a new object
 * schema for every server, and every HTTP session has its own server: with thousands of sessions
 * that is thousands of copies, each compiling its own parser on first use. Built here once, with
 * the SDK's own builder, validation is exactly what the SDK would do with the shape.
 */
export function schemasOf(tool: ShapedTool): ToolSchemas {
  let schemas = built.get(tool);
  if (schemas === undefined) {
    schemas = { input: objectFromShape(tool.input), output: objectFromShape(tool.output) };
    built.set(tool, schemas);
  }
  return schemas;
}
