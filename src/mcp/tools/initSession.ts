import { z } from 'zod';
import { LIMITS } from '../../core/validation.ts';
import { sessionRecordSchema } from '../../core/domain/workingRecords.ts';
import { defineTool } from '../defineTool.ts';
import { idString, userIdField, workingStateSchema } from '../schemas.ts';

export const initSessionTool = defineTool({
  name: 'init_session',
  title: 'Start or resume a session',
  description: 'Start a working-memory session, or resume one by session_id. Call once per conversation.',
  input: {
    session_id: idString().optional().describe('Session to resume; omit for a new one.'),
    user_id: userIdField,
    org_id: idString().optional(),
    config: z
      .object({
        max_tokens: z.number().int().positive().max(LIMITS.maxTokens).optional().describe('Default 8000.'),
        eviction_policy: sessionRecordSchema.shape.eviction_policy.optional().describe('Default hybrid.'),
      })
      .optional()
      .describe('Also applied on resume.'),
  },
  output: { session_id: z.string(), created: z.boolean(), working_memory: workingStateSchema },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) =>
    context.core.initSession({
      ...caller.authorizeLayers(args, 'write'),
      user_id: caller.user(),
      ...(context.core.defaultProjectId ? { project_id: context.core.defaultProjectId } : {}),
    }),
});
