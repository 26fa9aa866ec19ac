import { z } from 'zod';
import { MemoryError } from '../../core/domain/errors.ts';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';
import type { ServerContext } from '../serverContext.ts';
import { LIMITS } from '../../core/validation.ts';

export const callRecordSchema = z.object({
  tool: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  at: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

/** The server's call log, or a clear error on a server built without one. */
export function requireCallLog(context: ServerContext) {
  if (!context.callLog)
    throw new MemoryError('CONFIGURATION_ERROR', 'This server keeps no call log.', { details: { field: 'callLog' } });
  return context.callLog;
}

export const getRecentCallsTool = defineTool({
  name: 'get_recent_calls',
  title: 'Recent tool calls',
  description:
    'The most recent tool calls this server handled for the user, newest first, with duration and outcome (kept in memory, cleared on restart).',
  input: {
    user_id: userIdField,
    limit: z.number().int().min(1).max(LIMITS.recentCalls).optional().describe('Most calls to return (default 50).'),
  },
  output: { calls: z.array(callRecordSchema) },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (context, args, caller) => {
    const user = caller.user();
    // Only this user's calls: the log is shared by every connection of the process.
    const calls = requireCallLog(context)
      .recent(LIMITS.recentCalls)
      .filter((call) => call.user_id === user)
      .slice(0, args.limit ?? 50);
    return { calls: calls.map(({ user_id: _user, ...call }) => call) };
  },
});
