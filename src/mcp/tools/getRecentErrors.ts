import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { userIdField } from '../schemas.ts';
import { callRecordSchema, requireCallLog } from './getRecentCalls.ts';
import { LIMITS } from '../../core/validation.ts';

export const getRecentErrorsTool = defineTool({
  name: 'get_recent_errors',
  title: 'Recent tool errors',
  description:
    'The most recent failed tool calls for the user, newest first, each with its error code and message (kept in memory, cleared on restart).',
  input: {
    user_id: userIdField,
    limit: z.number().int().min(1).max(LIMITS.recentCalls).optional().describe('Most errors to return (default 20).'),
  },
  output: { errors: z.array(callRecordSchema) },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (context, args, caller) => {
    const user = caller.user();
    const errors = requireCallLog(context)
      .recentErrors(LIMITS.recentCalls)
      .filter((call) => call.user_id === user)
      .slice(0, args.limit ?? 20);
    return { errors: errors.map(({ user_id: _user, ...call }) => call) };
  },
});
