import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { normaliseEntities } from '../entities/extractEntities.ts';
import { StructuredFacts } from '../facts/structuredFacts.ts';
import type { LongTermMemory } from '../longterm/longTermMemory.ts';
import { LIMITS } from '../validation.ts';
import type { ExtractedMemory } from './extractor.ts';
import { findCorrectionTarget } from './findCorrectionTarget.ts';
import { withoutPendingTag } from './pendingExtraction.ts';
import { applyEdit } from '../longterm/applyEdit.ts';

/** Below explicit statements (1.0), so a fact the user set by hand is never overwritten by an extraction. */
const EXTRACTED_CONFIDENCE = 0.8;

export interface ExtractionOutcome {
  /** Memories created or updated from the extracted items, the raw memory excluded. */
  memory_ids: string[];
  /** 'reclassified': the raw memory was itself one extracted item and now carries its classification;
   *  'replaced': the raw memory was split into others and moved to the trash (restorable);
   *  'kept': nothing was extracted, the raw memory is pinned, or it still supersedes another memory. */
  raw: 'reclassified' | 'replaced' | 'kept';
  superseded: string[];
}

/**
 * Stores what an extractor found in a raw (pending) memory and settles the raw memory. Safe to
 * run again after a partial failure: items already stored come back as duplicates of themselves.
 */
export async function applyExtraction(
  deps: CoreDeps,
  longTerm: LongTermMemory,
  raw: MemoryRecord,
  extracted: readonly ExtractedMemory[],
  extractorName: string,
): Promise<ExtractionOutcome> {
  const facts = new StructuredFacts(deps, longTerm);
  const memoryIds: string[] = [];
  const superseded: string[] = [];
  let rawItem: ExtractedMemory | undefined;
  for (const item of extracted) {
    const target = item.correction
      ? await findCorrectionTarget(deps, {
          user_id: raw.user_id,
          project_id: raw.project_id,
          content: item.content,
          replaces: item.correction.replaces,
          exclude: [raw.memory_id, ...memoryIds],
        })
      : null;
    const result = await longTerm.store({
      user_id: raw.user_id,
      project_id: raw.project_id,
      content: item.content,
      memory_category: item.category,
      memory_subtype: item.subtype,
      importance: item.importance,
      ...(item.entities.length > 0 ? { entities: item.entities.slice(0, LIMITS.entities) } : {}),
      ...(item.is_temporal && raw.event_time ? { event_time: raw.event_time } : {}),
      metadata: {
        extracted_from: raw.memory_id,
        extractor: extractorName,
        ...(item.correction ? { corrects: item.correction.replaces } : {}),
      },
      ...(raw.source_session ? { session_id: raw.source_session } : {}),
      ...(target ? { supersedes: target.memory_id } : {}),
      source_type: 'extraction',
      confidence: EXTRACTED_CONFIDENCE,
    });
    if (target) superseded.push(target.memory_id);
    if (result.memory_id === raw.memory_id) rawItem = item;
    else memoryIds.push(result.memory_id);
    if (item.fact) {
      const set = await facts.set({
        user_id: raw.user_id,
        ...item.fact,
        confidence: EXTRACTED_CONFIDENCE,
        importance: Math.max(0.6, item.importance),
        ...(raw.source_session ? { session_id: raw.source_session } : {}),
      });
      memoryIds.push(set.fact.memory_id);
    }
  }

  // Re-read: storing a near-duplicate of the raw memory merged into it.
  const [current] = await deps.store.getMemories(raw.user_id, [raw.memory_id]);
  const base = current ?? raw;
  const ids = [...new Set(memoryIds)];
  // A raw memory that still supersedes another (contradiction detection on store) stays live:
  // trashing it would leave the older memory hidden behind a deleted one.
  const [replacedByRaw] = base.supersedes ? await deps.store.getMemories(raw.user_id, [base.supersedes]) : [];
  const stillCorrects = replacedByRaw?.superseded_by === raw.memory_id;
  const outcome: ExtractionOutcome['raw'] = rawItem
    ? 'reclassified'
    : extracted.length === 0 || base.pinned || stillCorrects
      ? 'kept'
      : 'replaced';
  const now = deps.clock.now().toISOString();
  const tags = withoutPendingTag(base.tags);
  const settled: MemoryRecord = {
    ...base,
    tags,
    metadata: {
      ...base.metadata,
      tags,
      extraction: outcome === 'replaced' ? 'replaced' : 'done',
      extractor: extractorName,
      extracted_into: ids,
    },
    ...(rawItem
      ? {
          memory_category: rawItem.category,
          memory_subtype: rawItem.subtype,
          importance: Math.max(base.importance, rawItem.importance),
          entities: normaliseEntities([...base.entities, ...rawItem.entities]).slice(0, LIMITS.entities),
          is_temporal: rawItem.is_temporal,
        }
      : {}),
    ...(outcome === 'replaced' ? { deleted_at: now } : {}),
    updated_at: now,
  };
  await applyEdit(deps.store, raw, settled, { ifForgotten: 'drop' });
  deps.events.emit({
    type: 'memory',
    user_id: raw.user_id,
    memory_ids: [raw.memory_id],
    change: outcome === 'replaced' ? 'deleted' : 'updated',
  });
  return { memory_ids: ids, raw: outcome, superseded };
}
