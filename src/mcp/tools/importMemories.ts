import { z } from 'zod';
import { defineTool } from '../defineTool.ts';
import { redactionsField, userIdField } from '../schemas.ts';

export const importMemoriesTool = defineTool({
  name: 'import_memories',
  title: 'Import memories',
  description:
    "Load a JSON export (from export_memories) into the user's memory. Validates the format and version; idempotent by memory_id (memories already present are skipped). Everything imported belongs to the calling user; ids held by another user are given new ids, listed in remapped_ids.",
  input: {
    user_id: userIdField,
    data: z
      .record(z.string(), z.unknown())
      .describe('The export object: { format, format_version, memories, sessions, working_items }.'),
  },
  output: {
    memories_imported: z.number(),
    memories_skipped: z.number().describe('Already present (idempotent re-import).'),
    sessions_imported: z.number(),
    sessions_skipped: z.number(),
    working_items_imported: z.number(),
    remapped_ids: z.record(z.string(), z.string()).describe('Original id → id used, for ids that had to change.'),
    redactions: redactionsField,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (context, args, caller) => context.core.importMemories(caller.user(), args.data),
});
