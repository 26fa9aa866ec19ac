import type { CallToolResult, ToolAnnotations } from './mcpSdk.ts';
import { z } from 'zod';
import { MemoryError } from '../core/domain/errors.ts';
import type { ServerContext } from './serverContext.ts';
import type { CallLog } from './callLog.ts';
import { schemasOf } from './toolSchemas.ts';
import { errorWithoutLocalPaths } from './localPaths.ts';
import { withFullIds, type ShortIdRegistry } from './shortIds.ts';
import { CallerAccess } from './callerAccess.ts';
import { storedTextJson } from '../core/api/storedText.ts';

export interface ToolDefinition<Input extends z.ZodRawShape, Output extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;
  /** `caller`: who the call acts for and which layers it may use, resolved once when the call arrived. */
  run(
    context: ServerContext,
    args: z.infer<z.ZodObject<Input>>,
    caller: CallerAccess,
  ): Promise<z.infer<z.ZodObject<Output>>>;
  /** The text a model reads; the JSON of the output when absent. The structured content is always the output. */
  render?(output: z.infer<z.ZodObject<Output>>, args: z.infer<z.ZodObject<Input>>, view: AnswerView): string;
}

/** What rendering an answer's text may use besides the output: the short ids this user is shown. */
export interface AnswerView {
  shortId(memoryId: string): string;
}

/** A tool of any shape, as the catalog and the dispatcher hold it. */
export type AnyTool = ToolDefinition<any, any>;

/** Identity for a tool definition; keeps the input and output types of `run` inferred from the schemas. */
export function defineTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(
  definition: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  return definition;
}

/**
 * Runs one tool call: validates the arguments with the tool's schema, runs it, records it in the
 * call log. Invalid arguments are a tool error (INVALID_INPUT) a model can read and correct.
 * Memory ids given in their short form (shortIds.ts) are replaced by the full ids before the run.
 */
export async function callTool(
  context: ServerContext,
  tool: AnyTool,
  args: Record<string, unknown>,
  log: CallLog,
  shortIds: ShortIdRegistry,
): Promise<CallToolResult> {
  const started = performance.now();
  // The one resolution of the caller this call gets: the log, the short ids and the tool share it.
  const caller = CallerAccess.resolve(context, args.user_id);
  const who = caller.userId !== undefined ? { user_id: caller.userId } : {};
  try {
    const parsed = schemasOf(tool).input.safeParse(args);
    if (!parsed.success) throw new MemoryError('INVALID_INPUT', describeIssues(parsed.error), { operation: tool.name });
    // Short ids are per user; without one (an unbound call missing user_id) the tool itself refuses.
    const owner = caller.userId ?? '';
    const resolved = withFullIds(shortIds, owner, parsed.data as Record<string, unknown>);
    const output = (await tool.run(context, resolved as never, caller)) as Record<string, unknown>;
    log.record({ tool: tool.name, ok: true, ms: performance.now() - started, ...who });
    const view: AnswerView = { shortId: (memoryId) => shortIds.shorten(owner, memoryId) };
    // The text is what a model reads: stored text in it is marked (issue 28.7); structuredContent stays exact.
    const text = tool.render ? tool.render(output as never, resolved as never, view) : storedTextJson(output);
    return { content: [{ type: 'text', text }], structuredContent: output };
  } catch (error) {
    const failure = errorWithoutLocalPaths(toMemoryError(error, tool.name));
    log.record({ tool: tool.name, ok: false, ms: performance.now() - started, error: failure.toJSON(), ...who });
    return errorResult(failure);
  }
}

/** Schema failures as one readable line per field: `limit: Too big: expected number to be <=100`. */
export function describeIssues(error: z.ZodError): string {
  const lines = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'arguments'}: ${issue.message}`);
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `Invalid arguments: ${lines.join('; ')}${more}.`;
}

export function errorResult(error: MemoryError): CallToolResult {
  // No structuredContent: clients validate it against the tool's success schema even on errors.
  // The first line is for a model to read; the second is the typed error for programs.
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}\n${JSON.stringify({ error: error.toJSON() })}` }],
  };
}

/** Anything that is not already a MemoryError is a backend failure: reported, never a crash. */
function toMemoryError(error: unknown, operation: string): MemoryError {
  if (MemoryError.is(error)) return error.inOperation(operation);
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryError('PROVIDER_ERROR', `The memory backend failed: ${message}`, { cause: error, operation });
}
