import type { WorkingContentType, WorkingItemRecord } from '../domain/records.ts';
import { isWorthKeeping, isWorthKeepingAtClear } from '../longterm/classifyContent.ts';

/**
 * Content types never promoted: system text and retrieved memories live elsewhere already, and
 * editor context is a live view of the editor, re-captured whenever it changes (what is worth
 * keeping from it, an error and its fix, the capture stores as an outcome memory itself).
 */
const NOT_PROMOTED: ReadonlySet<WorkingContentType> = new Set(['system', 'retrieved_memory', 'editor_context']);

/** Metadata key marking an evicted item that is kept only until it is promoted. */
export const EVICTED_AT = 'evicted_at';

export function isAwaitingPromotion(item: WorkingItemRecord): boolean {
  return typeof item.metadata[EVICTED_AT] === 'string';
}

export function isPromotable(item: WorkingItemRecord): boolean {
  return !NOT_PROMOTED.has(item.content_type) && isWorthKeeping(item.content, item.token_count);
}

export function isKeptAtClear(item: WorkingItemRecord): boolean {
  return !NOT_PROMOTED.has(item.content_type) && isWorthKeepingAtClear(item.content, item.token_count);
}
