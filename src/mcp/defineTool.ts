import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MemoryError } from '../core/domain/errors.ts';
import type { ServerContext } from './serverContext.ts';
import type { CallLog } from './callLog.ts';
import { schemasOf } from './toolSchemas.ts';
import { errorWithoutLocalPaths } from './localPaths.ts';
import { settingId } from '../core/domain/settingIds.ts';
import { withFullIds, type ShortIdRegistry } from './shortIds.ts';

export interface ToolDefinition<Input extends z.ZodRawShape, Output extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;
  run(context: ServerContext, args: z.infer<z.ZodObject<Input>>): Promise<z.infer<z.ZodObject<Output>>>;
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
  const user = args.user_id ?? context.defaultUserId;
  const who = typeof user === 'string' ? { user_id: user } : {};
  try {
    const parsed = schemasOf(tool).input.safeParse(args);
    if (!parsed.success) throw new MemoryError('INVALID_INPUT', describeIssues(parsed.error), { operation: tool.name });
    // Short ids are per user; without one (an unbound call missing user_id) the tool itself refuses.
    const owner = typeof user === 'string' ? user : '';
    const resolved = withFullIds(shortIds, owner, parsed.data as Record<string, unknown>);
    const output = (await tool.run(context, resolved as never)) as Record<string, unknown>;
    log.record({ tool: tool.name, ok: true, ms: performance.now() - started, ...who });
    const view: AnswerView = { shortId: (memoryId) => shortIds.shorten(owner, memoryId) };
    const text = tool.render ? tool.render(output as never, resolved as never, view) : JSON.stringify(output);
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

/** The user a call acts for: the given one, or the server's default user, or a clear error. */
export function resolveUser(context: ServerContext, userId: string | undefined): string {
  // A server bound to one user (the editor, `fml serve --user`) serves that user only.
  if (context.defaultUserId !== undefined && userId !== undefined && userId !== context.defaultUserId) {
    throw new MemoryError(
      'UNAUTHORIZED',
      `This server is bound to one user; user_id "${userId}" is not it. Omit user_id to act for the bound user.`,
      { details: { field: 'user_id' } },
    );
  }
  const resolved = userId ?? context.defaultUserId;
  if (!resolved)
    throw new MemoryError('MISSING_IDENTIFIER', 'user_id is required: pass the id of the user whose memory this is.', {
      details: { field: 'user_id' },
    });
  return resolved;
}

/**
 * The owner a session tool checks the session against: the user the call names or the server is
 * bound to. A bound server refuses any other user; with neither, the session id alone decides.
 */
export function sessionOwner(context: ServerContext, userId: string | undefined): { user_id?: string } {
  if (context.defaultUserId !== undefined && userId !== undefined && userId !== context.defaultUserId) {
    throw new MemoryError(
      'UNAUTHORIZED',
      `This server is bound to one user; user_id "${userId}" is not it. Omit user_id to act for the bound user.`,
      { details: { field: 'user_id' } },
    );
  }
  const owner = userId ?? context.defaultUserId;
  return owner === undefined ? {} : { user_id: owner };
}

type LayerArgs = {
  project_id?: string | null;
  team_id?: string;
  org_id?: string;
  company_id?: string;
  agent_id?: string;
};

/** Whether a call only reads the layers it names, or writes to or deletes from them. */
export type LayerAccess = 'read' | 'write';

/**
 * Shared-layer identifiers a call may use. A server bound to one user (the editor, `fml serve
 * --user`) grants the team, org and company it was configured with and no others, so a client
 * cannot read or write another team's memory by naming it. It acts in the project it was started
 * for (`--project`, the editor's workspace) and no other; other projects can be opened for reading
 * only (`--read-project`). An unbound server (a user's own `fml serve`) takes any.
 */
export function authorizeLayers<T extends LayerArgs>(context: ServerContext, args: T, access: LayerAccess = 'read'): T {
  if (context.defaultUserId === undefined) return args;
  const granted = context.core.layerDefaults;
  for (const field of ['team_id', 'org_id', 'company_id'] as const) {
    const asked = args[field];
    if (asked !== undefined && asked !== granted[field]) {
      throw new MemoryError(
        'UNAUTHORIZED',
        granted[field]
          ? `This server is configured for ${field} "${granted[field]}"; "${asked}" is not open to it. Omit ${field} to use the configured one.`
          : `This server has no ${field} configured, so that layer is closed to it. Set it in the editor settings (${settingId('layers')}) to share memories there.`,
        { details: { field } },
      );
    }
  }
  const project = args.project_id;
  if (project !== undefined && project !== null && project !== context.core.defaultProjectId) {
    const readable = access === 'read' && (context.readableProjectIds ?? []).includes(project);
    if (!readable) {
      const own = context.core.defaultProjectId;
      throw new MemoryError(
        'UNAUTHORIZED',
        own
          ? `This server acts in project "${own}"; project "${project}" is not open to it${access === 'write' ? ' for writing' : ''}. Omit project_id to use its own.`
          : `This server was started for no project, so project "${project}" is closed to it.`,
        { details: { field: 'project_id' } },
      );
    }
  }
  return args;
}

/**
 * Layer arguments of a call that names one memory's place: authorised, and completed with the
 * server's own identifiers (workspace project, configured team, org, company, agent) where the
 * call leaves them out.
 */
export function resolveLayerArgs<T extends LayerArgs>(
  context: ServerContext,
  args: T,
  access: LayerAccess = 'write',
): T {
  const resolved = { ...authorizeLayers(context, args, access) };
  const defaults = context.core.layerDefaults;
  if (resolved.project_id === undefined && context.core.defaultProjectId)
    resolved.project_id = context.core.defaultProjectId;
  for (const field of ['agent_id', 'team_id', 'org_id', 'company_id'] as const) {
    if (resolved[field] === undefined && defaults[field]) resolved[field] = defaults[field];
  }
  return resolved;
}
