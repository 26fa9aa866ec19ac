/**
 * What makes a memory a dialog turn, and the two facts neighbour expansion decides on: the
 * conversation a turn belongs to and whether it asks something. Stores keep these facts in compact
 * per-memory columns beside their indexes (MemoryStore.turnFacts), so recall never reads a full row
 * to learn them; this module is the one definition both the stores and recall use.
 *
 * Memories an agent stored one by one are independent even when stored minutes apart; turns are
 * memories of the conversation subtype that the client marks as one conversation: the same
 * session id, or the same conversation/thread/session value in the metadata it gives every turn.
 */
import type { MemoryRecord } from './records.ts';

/** Subtypes that hold dialog turns. */
export const CONVERSATION_SUBTYPES: ReadonlySet<string> = new Set(['conversation']);
/** Metadata keys a client may use to mark turns of one conversation, in order of preference. */
export const CONVERSATION_METADATA_KEYS = ['conversation_id', 'thread_id', 'session_id', 'session'] as const;

/** A memory's dialog-turn facts, as a store keeps them per memory. */
export interface TurnFacts {
  /** The conversation the memory is a turn of (conversationKey), null when it is not a marked dialog turn. */
  conversation: string | null;
  /** A turn that asks something (its reply is likely the answer); false for every memory that is not a turn. */
  question: boolean;
}

export type TurnSource = Pick<MemoryRecord, 'memory_subtype' | 'source_session' | 'metadata' | 'content'>;

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

/** A dialog turn's text asks something. */
export function asksQuestion(content: string): boolean {
  return content.includes('?');
}

export function turnFactsOf(memory: TurnSource): TurnFacts {
  const conversation = conversationKey(memory);
  return { conversation, question: conversation !== null && asksQuestion(memory.content) };
}
