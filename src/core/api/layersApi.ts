import type { LayerIdentifiers, LayerName, MemoryLayer } from '../domain/layers.ts';

/** Inputs and outputs of promotion between memory layers (seed 001); shared with the panel. */

export interface PromoteMemoryInput extends Partial<Record<keyof LayerIdentifiers, string>> {
  user_id: string;
  memory_id: string;
  /** Layer to copy the memory into. */
  to_layer: LayerName;
  /** Layer the memory is in now, when that is a shared one (its identifier among the others). */
  from_layer?: LayerName;
  /** Why, kept with the promotion record. */
  reason?: string;
  /** Forget the original once the copy exists (default false: the original stays where it was). */
  move?: boolean;
}

/** The record a promoted memory carries in metadata.promotion; the source lists it in metadata.promoted_to. */
export interface PromotionRecord {
  from_memory_id: string;
  from_layer: MemoryLayer;
  from_scope_id: string;
  to_memory_id: string;
  to_layer: MemoryLayer;
  to_scope_id: string;
  promoted_by: string;
  promoted_at: string;
  reason: string | null;
}

export interface PromoteMemoryOutput {
  /** 'promoted' (new memory), 'merged' (the target layer already had a near-duplicate, which now carries the promotion) or 'already_promoted'. */
  action: 'promoted' | 'merged' | 'already_promoted';
  memory_id: string;
  promotion: PromotionRecord;
  source_removed: boolean;
}

/** A memory of a less specific layer hidden by a more specific one. */
export interface OverriddenMemory {
  memory_id: string;
  layer: MemoryLayer;
  content: string;
  reason: string;
}
