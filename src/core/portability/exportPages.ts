import { withExportableAnchors } from '../anchors/exportedAnchors.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { SessionRecord, WorkingItemRecord } from '../domain/records.ts';
import type { MemoryFilter } from '../ports/memoryStore.ts';
import { utf8ByteLength } from '../util/utf8.ts';
import { requireId } from '../validation.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, type ExportedMemory, type MemoryExport } from './exportFormat.ts';

/**
 * Serialised records per page. An MCP answer carries the page twice (text and structured
 * content), so a page of 2 MB stays far below the 10 MB an SDK stdio reader takes per message.
 */
export const EXPORT_PAGE_BYTES = 2_000_000;
const READ_BATCH = 200;

export interface ExportPage extends MemoryExport {
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

type Position = { section: 'memories' | 'sessions'; offset: number };

/**
 * One page of a user's export (export_memories). Memories come first, oldest first, then
 * sessions with their working items. Concatenating the pages' arrays gives the whole export;
 * `counts` on every page are the totals. A page holds at least one record, so it always advances.
 */
export async function exportPage(
  deps: CoreDeps,
  userId: string,
  cursor: string | undefined,
  pageBytes = EXPORT_PAGE_BYTES,
): Promise<ExportPage> {
  const user = requireId(userId, 'user_id');
  const position = parseCursor(cursor);
  const filter: MemoryFilter = { user_id: user, state: 'all', include_superseded: true };
  const sessions = await deps.store.listSessions(user);
  const [total, deleted] = await Promise.all([
    deps.store.listMemories({ filter, sort: 'created', offset: 0, limit: 0 }),
    deps.store.listMemories({ filter: { ...filter, state: 'deleted' }, sort: 'created', offset: 0, limit: 0 }),
  ]);
  const memories: ExportedMemory[] = [];
  const pageSessions: SessionRecord[] = [];
  const pageItems: WorkingItemRecord[] = [];
  let used = 0;
  let next: Position | null = position;
  const fits = (bytes: number, empty: boolean) => empty || used + bytes <= pageBytes;

  while (next?.section === 'memories') {
    const batch = await deps.store.listMemories({ filter, sort: 'created', offset: next.offset, limit: READ_BATCH });
    let taken = 0;
    for (const memory of batch.items) {
      const exported = { ...withExportableAnchors(memory), deleted: memory.deleted_at !== null };
      const bytes = utf8ByteLength(JSON.stringify(exported));
      if (!fits(bytes, memories.length === 0)) break;
      memories.push(exported);
      used += bytes;
      taken++;
    }
    const offset: number = next.offset + taken;
    if (taken < batch.items.length) next = { section: 'memories', offset };
    else
      next =
        batch.items.length < READ_BATCH || offset >= batch.total
          ? { section: 'sessions', offset: 0 }
          : { section: 'memories', offset };
    if (taken < batch.items.length) break;
  }
  while (next?.section === 'sessions') {
    const session = sessions[next.offset];
    if (!session) {
      next = null;
      break;
    }
    const items = (await deps.store.listWorkingItems(session.session_id)).filter((item) => item.user_id === user);
    const bytes = utf8ByteLength(JSON.stringify(session)) + utf8ByteLength(JSON.stringify(items));
    if (!fits(bytes, memories.length === 0 && pageSessions.length === 0)) break;
    pageSessions.push(session);
    pageItems.push(...items);
    used += bytes;
    next = { section: 'sessions', offset: next.offset + 1 };
  }
  if (next?.section === 'sessions' && next.offset >= sessions.length) next = null;

  let workingItemCount = 0;
  for (const session of sessions)
    workingItemCount += (await deps.store.listWorkingItems(session.session_id)).filter(
      (item) => item.user_id === user,
    ).length;
  return {
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: deps.clock.now().toISOString(),
    user_id: user,
    counts: {
      memories: total.total,
      deleted_memories: deleted.total,
      sessions: sessions.length,
      working_items: workingItemCount,
    },
    memories,
    sessions: pageSessions,
    working_items: pageItems,
    next_cursor: next === null ? null : `${next.section === 'memories' ? 'm' : 's'}${next.offset}`,
  };
}

function parseCursor(cursor: string | undefined): Position {
  if (cursor === undefined || cursor === '') return { section: 'memories', offset: 0 };
  const match = /^([ms])(\d{1,12})$/.exec(cursor);
  if (!match)
    throw new MemoryError('INVALID_INPUT', 'cursor must be the next_cursor of a previous export_memories page.', {
      details: { field: 'cursor' },
    });
  return { section: match[1] === 'm' ? 'memories' : 'sessions', offset: Number(match[2]) };
}
