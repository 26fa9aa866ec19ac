import type { SimilarExisting, StoreMemoryInput, StoreMemoryOutput } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { normaliseEntities } from '../entities/extractEntities.ts';
import type { Redaction } from '../safety/contentGuard.ts';
import { SEARCH_KEY_ORIGINS_FIELD, SEARCH_KEYS_FIELD, withSearchKeys } from '../text/searchKeys.ts';
import { LIMITS } from '../validation.ts';
import { applyEdit } from './applyEdit.ts';
import type { EnrichmentHook } from './enrichmentHook.ts';

/** A store call's validated parts, kept for merging into a duplicate found before or inside the insert. */
export interface StoreDraft {
  input: StoreMemoryInput;
  metadata: Record<string, unknown>;
  keywords: string[];
  entities: string[];
  tags: string[];
  content: string;
  stored: StoredEmbedding | null;
  extracted: string[];
  redactions: Redaction[];
  now: string;
  embedding_status: StoreMemoryOutput['embedding_status'];
}

/** How a store call reports the memory its content is close to. */
export function describeSimilar(
  memory: MemoryRecord,
  similarity: number,
  action: SimilarExisting['action'],
): SimilarExisting {
  return {
    memory_id: memory.memory_id,
    similarity: Math.round(similarity * 1000) / 1000,
    content: memory.content,
    action,
  };
}

/** A stored memory folded into its near-duplicate instead of written as a new one. */
export class DuplicateMerge {
  private readonly deps: CoreDeps;
  private readonly enrichment: EnrichmentHook;

  constructor(deps: CoreDeps, enrichment: EnrichmentHook) {
    this.deps = deps;
    this.enrichment = enrichment;
  }

  /**
   * Merges the new memory into its near-duplicate: the row as it is now, new text only over the
   * version it was compared with. Null when the duplicate was forgotten meanwhile (it takes nothing;
   * the caller stores the memory as a new one).
   */
  async mergeIntoDuplicate(
    similar: { memory: MemoryRecord; similarity: number },
    draft: StoreDraft,
  ): Promise<StoreMemoryOutput | null> {
    const { input, metadata, keywords, entities, tags, content, stored, extracted, redactions, now } = draft;
    const action = similar.similarity >= 0.999 ? 'skipped_duplicate' : 'updated_existing';
    const { [SEARCH_KEYS_FIELD]: _keys, [SEARCH_KEY_ORIGINS_FIELD]: _origins, ...plainMetadata } = metadata;
    // The older memory keeps its keys (a model's among them); the agent's new ones are added.
    const mergedMetadata = withSearchKeys(
      { ...similar.memory.metadata, ...plainMetadata },
      keywords,
      { by: 'agent', at: now },
      LIMITS.searchKeys,
    );
    const contentChanged = action === 'updated_existing' && content !== similar.memory.content;
    const base: MemoryRecord = {
      ...similar.memory,
      content: action === 'updated_existing' ? content : similar.memory.content,
      entities: normaliseEntities([...similar.memory.entities, ...entities]).slice(0, LIMITS.entities),
      tags: [...new Set([...similar.memory.tags, ...tags])].slice(0, LIMITS.tags),
      metadata: keywords.length > 0 ? mergedMetadata : { ...similar.memory.metadata, ...plainMetadata },
      importance: Math.max(similar.memory.importance, input.importance ?? 0),
      updated_at: now,
    };
    const edited = contentChanged ? this.enrichment.forEnrichment(base) : base;
    // Merged into the row as it is now; new text only over the version it was compared with.
    // A duplicate forgotten meanwhile takes nothing, and the memory is stored as a new one.
    const outcome = await applyEdit(this.deps.store, similar.memory, edited, {
      ifForgotten: 'drop',
      ...(contentChanged ? { expectedVersion: similar.memory.version } : {}),
      ...(action === 'updated_existing' ? { embedding: stored } : {}),
    });
    if (outcome.status === 'applied') {
      const merged = outcome.memory;
      this.deps.events.emit({
        type: 'memory',
        user_id: merged.user_id,
        memory_ids: [merged.memory_id],
        change: 'updated',
      });
      if (contentChanged) this.enrichment.queueEnrichment(merged);
      return {
        memory_id: merged.memory_id,
        entities_extracted: extracted,
        similar_existing: describeSimilar(similar.memory, similar.similarity, action),
        embedding_status: draft.embedding_status,
        redactions,
      };
    }
    return null;
  }
}
