import type { AddToWorkingMemoryInput, PromotedItem } from '../api/workingMemoryApi.ts';
import { MemoryError } from '../domain/errors.ts';
import type { SessionRecord, WorkingItemRecord } from '../domain/records.ts';
import { advanceTurn, CONVERSATION_TURN, countsAsTurn } from '../episodes/conversationTurns.ts';
import { newId } from '../util/ids.ts';
import { requireId } from '../validation.ts';
import { chooseEvictions } from './eviction.ts';
import { EVICTED_AT, isPromotable } from './promotedItems.ts';
import { sum } from './workingState.ts';

/** What one add_to_working_memory call changes, decided before anything is written. */
export interface AddPlan {
  item: WorkingItemRecord;
  /** The session after the add: its new total, next sequence, activity and turn. */
  updated: SessionRecord;
  /** Items evicted to make room. */
  evicted: WorkingItemRecord[];
  /** The evicted items worth promoting to long-term memory. */
  toPromote: WorkingItemRecord[];
  /** Those items as they stay in the store, marked, until they are promoted. */
  pendingPromotion: WorkingItemRecord[];
  promoted: PromotedItem[];
  /** The conversation turn this item counts as, with the session config that records it; null when it is none. */
  turn: ReturnType<typeof advanceTurn> | null;
}

export interface AddRequest {
  session: SessionRecord;
  /** The session's live items. */
  items: readonly WorkingItemRecord[];
  input: AddToWorkingMemoryInput;
  /** The content and metadata after the secret guard. */
  content: string;
  metadata: Record<string, unknown>;
  tokenCount: number;
  now: Date;
}

/**
 * The item an add writes (a new one, or the one it replaces by item_id) and the evictions that
 * make room for it; CONTENT_TOO_LONG when pinned items leave too little room.
 */
export function planAdd({ session, items, input, content, metadata, tokenCount, now }: AddRequest): AddPlan {
  const nowIso = now.toISOString();
  const replaced = input.item_id ? items.find((item) => item.item_id === input.item_id) : undefined;
  if (input.item_id && !replaced) requireId(input.item_id, 'item_id');
  const turn = countsAsTurn(input.content_type, replaced !== undefined) ? advanceTurn(session, nowIso) : null;
  const others = items.filter((item) => item !== replaced);
  const needed = sum(others) + tokenCount - session.max_tokens;
  const { evicted, freed } =
    needed > 0 ? chooseEvictions(others, needed, session.eviction_policy, now) : { evicted: [], freed: 0 };
  if (freed < needed) {
    throw new MemoryError(
      'CONTENT_TOO_LONG',
      `Working memory is full of pinned items (${sum(others.filter((item) => item.pinned))} of ${session.max_tokens} tokens); unpin or clear items before adding ${tokenCount} more.`,
      {
        details: { token_count: tokenCount, max_tokens: session.max_tokens },
      },
    );
  }
  // Promotion (classify, deduplicate, store) happens right after this call, off its path: the
  // evicted items stay in the store, marked, until they are promoted, so a crash loses none.
  const toPromote = evicted.filter((entry) => isPromotable(entry));
  const pendingPromotion = toPromote.map((entry) => ({
    ...entry,
    metadata: { ...entry.metadata, [EVICTED_AT]: nowIso },
  }));
  const promoted: PromotedItem[] = toPromote.map((entry) => ({
    item_id: entry.item_id,
    memory_id: null,
    action: 'queued',
  }));
  const item: WorkingItemRecord = {
    item_id: replaced?.item_id ?? input.item_id ?? newId('wmi'),
    session_id: session.session_id,
    user_id: session.user_id,
    content_type: input.content_type,
    content,
    token_count: tokenCount,
    relevance_score: typeof metadata.relevance === 'number' ? Math.max(0, Math.min(1, metadata.relevance)) : 1,
    pinned: input.pinned ?? replaced?.pinned ?? false,
    sequence_num: replaced?.sequence_num ?? session.next_sequence,
    created_at: replaced?.created_at ?? nowIso,
    last_accessed: nowIso,
    // The turn number travels with the item into long-term memory when it is promoted.
    metadata: turn ? { ...metadata, [CONVERSATION_TURN]: turn.turn } : metadata,
  };
  const remaining = [...others.filter((other) => !evicted.includes(other)), item];
  const updated: SessionRecord = {
    ...session,
    total_tokens: sum(remaining),
    next_sequence: replaced ? session.next_sequence : session.next_sequence + 1,
    last_activity: nowIso,
    ...(turn ? { config: turn.config } : {}),
  };
  return { item, updated, evicted, toPromote, pendingPromotion, promoted, turn };
}
