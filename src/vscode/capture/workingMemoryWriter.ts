import { MemoryError } from '../../core/domain/errors.ts';
import type { CaptureWriter } from '../../core/editor/captureSink.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';

/**
 * Writes each capture slot as one editor_context item of the window's session, replaced in place
 * through a stable item id, so the item is updated rather than appended again.
 */
export class WorkingMemoryWriter implements CaptureWriter {
  private readonly host: MemoryHost;

  constructor(host: MemoryHost) {
    this.host = host;
  }

  async write(slot: string, content: string | null): Promise<void> {
    const { core, identity } = await this.host.ready();
    const itemId = editorItemId(identity.sessionId, slot);
    if (content === null) {
      try {
        await core.evictFromWorkingMemory({
          session_id: identity.sessionId,
          user_id: identity.userId,
          item_id: itemId,
          promote: false,
        });
      } catch (error) {
        // Already gone (evicted for budget, or cleared by the user): that is the state we wanted.
        if (!MemoryError.is(error, 'MEMORY_NOT_FOUND')) throw error;
      }
      return;
    }
    await core.addToWorkingMemory({
      session_id: identity.sessionId,
      user_id: identity.userId,
      content,
      content_type: 'editor_context',
      item_id: itemId,
      metadata: { source: 'editor', slot },
    });
  }
}

export function editorItemId(sessionId: string, slot: string): string {
  return `${sessionId}.editor.${slot}`;
}
