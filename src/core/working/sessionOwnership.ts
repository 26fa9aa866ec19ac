import type { MemoryStore } from '../ports/memoryStore.ts';
import { MemoryError } from '../domain/errors.ts';
import { requireId } from '../validation.ts';

/**
 * Refuses a session id that belongs to another user. Long-term writes name a session as their
 * source or layer; without this, anyone could attach memories to someone else's session. A session
 * that does not exist yet is no one's, so it stays usable as a session-layer scope.
 */
export async function requireOwnSession(
  store: MemoryStore,
  userId: string,
  sessionId: string | undefined,
): Promise<void> {
  if (sessionId === undefined) return;
  const session = await store.getSession(requireId(sessionId, 'session_id'));
  if (session && session.user_id !== userId) {
    throw new MemoryError('SESSION_NOT_FOUND', `No session ${sessionId} exists for this user.`, {
      details: { session_id: sessionId },
    });
  }
}
