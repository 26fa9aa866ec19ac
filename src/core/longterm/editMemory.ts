import type { UpdateMemoryInput, UpdateMemoryOutput } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import { conflictError } from '../domain/memoryChange.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { assertValidClassification } from '../domain/taxonomy.ts';
import { entitiesAfterEdit, normaliseEntities } from '../entities/extractEntities.ts';
import { partitionForCall } from '../layers/layerScope.ts';
import { guardJson, guardText, mergeRedactions } from '../safety/contentGuard.ts';
import {
  LIMITS,
  requireContent,
  requireId,
  requireMetadata,
  requireStringList,
  requireUnitInterval,
} from '../validation.ts';
import { withSearchKeyRemoved, withSearchKeys } from '../text/searchKeys.ts';
import { anchorsOf } from '../anchors/anchorModel.ts';
import { withAnchorEntities } from '../anchors/storeAnchors.ts';
import { applyEdit } from './applyEdit.ts';
import { requireVersion } from './changeInputs.ts';
import type { EnrichmentHook } from './enrichmentHook.ts';
import { requireMemory } from './requireMemory.ts';

export interface EditSearchKeysInput {
  user_id: string;
  memory_id: string;
  /** Keys the user adds (recorded as the user's). */
  add?: string[];
  /** Keys the user removes, whoever added them; a model never adds them back. */
  remove?: string[];
}

/** Correcting a stored memory: update_memory, and the user's own edit of its search keys. */
export class EditMemory {
  private readonly deps: CoreDeps;
  private readonly enrichment: EnrichmentHook;

  constructor(deps: CoreDeps, enrichment: EnrichmentHook) {
    this.deps = deps;
    this.enrichment = enrichment;
  }

  async update(input: UpdateMemoryInput): Promise<UpdateMemoryOutput> {
    const userId = partitionForCall(input);
    const existing = await requireMemory(this.deps.store, userId, requireId(input.memory_id, 'memory_id'));
    const expectedVersion = input.expected_version === undefined ? undefined : requireVersion(input.expected_version);
    if (expectedVersion !== undefined && expectedVersion !== existing.version) {
      throw conflictError(existing.memory_id, expectedVersion, existing.version);
    }
    if (existing.deleted_at) {
      throw new MemoryError(
        'MEMORY_NOT_FOUND',
        `Memory ${existing.memory_id} is forgotten; restore it before editing.`,
        { details: { memory_id: existing.memory_id } },
      );
    }
    const guardedContent =
      input.content === undefined ? null : guardText(requireContent(input.content), this.deps.config);
    const content = guardedContent ? guardedContent.content : existing.content;
    const guardedMetadata =
      input.metadata === undefined ? null : guardJson(requireMetadata(input.metadata), this.deps.config);
    const guardedTags =
      input.tags === undefined
        ? null
        : guardJson(requireStringList(input.tags, 'tags', LIMITS.tags, LIMITS.tagChars), this.deps.config, 'tags');
    const guardedEntities =
      input.entities === undefined
        ? null
        : guardJson(
            requireStringList(input.entities, 'entities', LIMITS.entities, LIMITS.entityChars),
            this.deps.config,
            'entities',
          );
    const category = input.memory_category ?? existing.memory_category;
    const subtype = input.memory_subtype ?? (input.memory_category ? '' : existing.memory_subtype);
    assertValidClassification(category, subtype);
    const contentChanged = content !== existing.content;
    let embedding: StoredEmbedding | null | undefined;
    if (contentChanged) {
      const outcome = await this.deps.embeddings.embed(content);
      embedding =
        outcome.vector && this.deps.embeddings.model
          ? { model: this.deps.embeddings.model, vector: outcome.vector }
          : null;
    }
    const edited: MemoryRecord = {
      ...existing,
      content,
      memory_category: category,
      memory_subtype: subtype,
      importance: requireUnitInterval(input.importance, 'importance', existing.importance),
      confidence: requireUnitInterval(input.confidence, 'confidence', existing.confidence),
      metadata: guardedMetadata ? { ...existing.metadata, ...guardedMetadata.value } : existing.metadata,
      tags: guardedTags ? guardedTags.value : existing.tags,
      // Anchored paths stay entities whatever the edit, so the path filter keeps finding the memory.
      entities: withAnchorEntities(
        guardedEntities
          ? normaliseEntities(guardedEntities.value)
          : contentChanged
            ? entitiesAfterEdit(existing.entities, content).slice(0, LIMITS.entities)
            : existing.entities,
        anchorsOf(guardedMetadata ? { ...existing.metadata, ...guardedMetadata.value } : existing.metadata),
      ).slice(0, LIMITS.entities),
      pinned: input.pinned ?? existing.pinned,
      // A pinned memory never decays (issue: pinned memories resist decay).
      decay_factor: (input.pinned ?? existing.pinned) ? 1 : existing.decay_factor,
      embedding_model: embedding === undefined ? existing.embedding_model : (embedding?.model ?? null),
      updated_at: this.deps.clock.now().toISOString(),
    };
    // New words need new keys: the model's keys of the old content are replaced once it answers.
    const wanted = contentChanged ? this.enrichment.forEnrichment(edited) : edited;
    // Only what this call edits is written, onto the row as it is now: concurrent edits of other
    // keys and fields stay. New text replaces only the text it was based on (else CONFLICT).
    const outcome = await applyEdit(this.deps.store, existing, wanted, {
      ifForgotten: 'reject',
      embedding,
      ...(expectedVersion !== undefined || contentChanged
        ? { expectedVersion: expectedVersion ?? existing.version }
        : {}),
    });
    if (outcome.status !== 'applied')
      throw new MemoryError('MEMORY_NOT_FOUND', `Memory ${existing.memory_id} is gone.`);
    const updated = outcome.memory;
    this.deps.events.emit({ type: 'memory', user_id: userId, memory_ids: [updated.memory_id], change: 'updated' });
    if (contentChanged) this.enrichment.queueEnrichment(updated);
    const redactions = mergeRedactions(
      guardedContent?.redactions ?? [],
      guardedMetadata?.redactions ?? [],
      guardedTags?.redactions ?? [],
      guardedEntities?.redactions ?? [],
    );
    return { success: true, re_embedded: embedding !== undefined && embedding !== null, memory: updated, redactions };
  }

  /** The user's own edit of a memory's search keys (the panel): added keys are the user's, removed ones stay removed. */
  async editSearchKeys(input: EditSearchKeysInput): Promise<MemoryRecord> {
    const userId = requireId(input.user_id, 'user_id');
    const memory = await requireMemory(this.deps.store, userId, requireId(input.memory_id, 'memory_id'));
    const add = guardJson(
      requireStringList(input.add, 'add', LIMITS.searchKeys, LIMITS.tagChars),
      { ...this.deps.config, secretPolicy: 'refuse' },
      'add',
    ).value;
    const remove = requireStringList(input.remove, 'remove', LIMITS.searchKeys, LIMITS.tagChars);
    if (add.length === 0 && remove.length === 0)
      throw new MemoryError('INVALID_INPUT', 'Name at least one search key to add or remove.', {
        details: { field: 'add' },
      });
    const now = this.deps.clock.now().toISOString();
    let metadata: Record<string, unknown> = memory.metadata;
    for (const key of remove) metadata = withSearchKeyRemoved(metadata, key);
    metadata = withSearchKeys(metadata, add, { by: 'user', at: now }, LIMITS.searchKeys);
    const outcome = await applyEdit(
      this.deps.store,
      memory,
      { ...memory, metadata, updated_at: now },
      {
        ifForgotten: 'reject',
      },
    );
    if (outcome.status !== 'applied') throw new MemoryError('MEMORY_NOT_FOUND', `Memory ${memory.memory_id} is gone.`);
    const updated = outcome.memory;
    this.deps.events.emit({
      type: 'memory',
      user_id: memory.user_id,
      memory_ids: [memory.memory_id],
      change: 'updated',
    });
    return updated;
  }
}
