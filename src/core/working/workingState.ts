import type { WorkingMemoryState } from '../api/workingMemoryApi.ts';
import type { SessionRecord, WorkingItemRecord } from '../domain/records.ts';

export function sum(items: readonly WorkingItemRecord[]): number {
  return items.reduce((total, item) => total + item.token_count, 0);
}

/** A session and its items as the panel, the status bar and get_working_memory report them. */
export function state(session: SessionRecord, items: WorkingItemRecord[]): WorkingMemoryState {
  return {
    session_id: session.session_id,
    user_id: session.user_id,
    project_id: session.project_id,
    max_tokens: session.max_tokens,
    total_tokens: sum(items),
    eviction_policy: session.eviction_policy,
    item_count: items.length,
    items,
  };
}
