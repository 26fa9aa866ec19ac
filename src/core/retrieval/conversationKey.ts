/**
 * Which memories are dialog turns of one conversation, the only ones neighbour expansion joins.
 * Memories an agent stored one by one are independent even when stored minutes apart; turns are
 * memories of the conversation subtype that the client marks as one conversation: the same
 * session id, or the same conversation/thread/session value in the metadata it gives every turn.
 */
import type { MemoryRecord } from '../domain/records.ts';

/** Subtypes that hold dialog turns. */
export const CONVERSATION_SUBTYPES: ReadonlySet<string> = new Set(['conversation']);
/** Metadata keys a client may use to mark turns of one conversation, in order of preference. */
export const CONVERSATION_METADATA_KEYS = ['conversation_id', 'thread_id', 'session_id', 'session'] as const;

/** The conversation a memory is a turn of, or null when it is not marked as a dialog turn. */
export function conversationKey(
  memory: Pick<MemoryRecord, 'memory_subtype' | 'source_session' | 'metadata'>,
): string | null {
  if (!CONVERSATION_SUBTYPES.has(memory.memory_subtype)) return null;
  if (memory.source_session) return `session:${memory.source_session}`;
  for (const key of CONVERSATION_METADATA_KEYS) {
    const value = memory.metadata[key];
    if (typeof value === 'string' && value.length > 0) return `${key}:${value}`;
    if (typeof value === 'number' && Number.isFinite(value)) return `${key}:${value}`;
  }
  return null;
}
