import type { WorkingContentType } from './records.ts';

/** Every kind of working-memory item; tool input and imported files are checked against it. */
export const WORKING_CONTENT_TYPES: readonly WorkingContentType[] = [
  'message',
  'task_state',
  'scratchpad',
  'system',
  'retrieved_memory',
  'editor_context',
];
