import { z } from 'zod';
import { authorizeLayers, defineTool, resolveUser } from '../defineTool.ts';
import { userIdField, workingStateSchema } from '../schemas.ts';

export const initSessionTool = defineTool({
  name: 'init_session',
  title: 'Start or resume a session',
  description: 'Initialize a new working-memory session or resume an existing one (same session_id). Call once per conversation before the other working-memory tools.',
  input: {
    session_id: z.string().min(1).max(200).optional().describe('Session to resume; a new id is generated when omitted.'),
    user_id: userIdField,
    org_id: z.string().min(1).max(200).optional().describe('Organisation context, for multi-tenant deployments.'),
    config: z
      .object({
        max_tokens: z.number().int().positive().optional().describe('Token budget of working memory (default 8000).'),
        eviction_policy: z.enum(['lru', 'relevance', 'hybrid']).optional().describe('Which items leave first when the budget is full (default hybrid).'),
      })
      .optional()
      .describe('Session configuration; applied on resume too.'),
  },
  output: { session_id: z.string(), created: z.boolean(), working_memory: workingStateSchema },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args) =>
    context.core.working.initSession({
      ...authorizeLayers(context, args, 'write'),
      user_id: resolveUser(context, args.user_id),
      ...(context.core.defaultProjectId ? { project_id: context.core.defaultProjectId } : {}),
    }),
});
