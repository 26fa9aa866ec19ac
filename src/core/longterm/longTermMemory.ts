import type {
  ForgetAllInput,
  ForgetAllOutput,
  ForgetMemoryInput,
  ForgetMemoryOutput,
  SimilarExisting,
  StoreMemoryInput,
  StoreMemoryOutput,
  UpdateMemoryInput,
  UpdateMemoryOutput,
} from '../api/longTermApi.ts';
import { FORGET_ALL_CONFIRMATION } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import { conflictError } from '../domain/memoryChange.ts';
import { applyEdit } from './applyEdit.ts';
import { forgetIds, requireVersion } from './changeInputs.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { assertValidClassification } from '../domain/taxonomy.ts';
import { entitiesAfterEdit, extractEntities, normaliseEntities } from '../entities/extractEntities.ts';
import { requireLayer } from '../domain/layers.ts';
import { identifiersFrom, isSharedLayer, partitionForCall, scopeFor, scopeRef } from '../layers/layerScope.ts';
import { findStoreConflict } from '../lifecycle/contradictionCandidates.ts';
import { factIdentity } from '../facts/factModel.ts';
import { guardJson, guardText, mergeRedactions, type Redaction } from '../safety/contentGuard.ts';
import { analyzeQuery } from '../text/analyzer.ts';
import { newId } from '../util/ids.ts';
import { parseIsoTimestamp } from '../util/time.ts';
import {
  LIMITS,
  requireContent,
  requireId,
  requireMetadata,
  requireStringList,
  requireUnitInterval,
} from '../validation.ts';
import { duplicateSimilarity, type DuplicateProbe } from './duplicateProbe.ts';
import type { DuplicateGuard } from '../ports/duplicateGuard.ts';
import type { WeightedTerm } from '../ports/memoryStore.ts';
import { requireOwnSession } from '../working/sessionOwnership.ts';
import {
  SEARCH_KEY_ORIGINS_FIELD,
  SEARCH_KEYS_FIELD,
  withSearchKeyRemoved,
  withSearchKeys,
} from '../text/searchKeys.ts';
import { EXTRACTION_PENDING_TAG, type ExtractionSink } from '../extraction/pendingExtraction.ts';
import { markedPending } from '../enrichment/pendingEnrichment.ts';
import { ANCHORS_FIELD, anchorsOf } from '../anchors/anchorModel.ts';
import { anchorsForStore, withAnchorEntities } from '../anchors/storeAnchors.ts';

const DEDUP_CANDIDATES = 5;
/**
 * A near-duplicate shares almost every term, so a dozen of them find it; long terms are the rare
 * ones, and short common ones would make the search walk most of the store.
 */
const DEDUP_QUERY_TERMS = 12;

/** Guarded inserts tried before giving up: a store that keeps changing under the check (see the loop). */
const GUARDED_INSERT_ATTEMPTS = 3;

/** The terms a duplicate search uses: the dozen rarest (longest among equals). */
function dedupTerms(content: string): WeightedTerm[] {
  return analyzeQuery(content)
    .sort((a, b) => b.weight - a.weight || b.term.length - a.term.length)
    .slice(0, DEDUP_QUERY_TERMS);
}

/** A store call's validated parts, kept for merging into a duplicate found before or inside the insert. */
interface StoreDraft {
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

/** Where stored and edited memories go for search keys; set by MemoryCore.startEnrichment. */
export interface EnrichmentSink extends ExtractionSink {
  readonly enriching: boolean;
}

export interface EditSearchKeysInput {
  user_id: string;
  memory_id: string;
  /** Keys the user adds (recorded as the user's). */
  add?: string[];
  /** Keys the user removes, whoever added them; a model never adds them back. */
  remove?: string[];
}

/** Storing, correcting and forgetting long-term memories (seed 000 §7.1 long-term tools). */
export class LongTermMemory {
  private readonly deps: CoreDeps;
  /**
   * Background enrichment (issue #14): when set, every stored or edited memory is written already
   * tagged enrichment:pending and queued after the write, so a store never waits for a model.
   */
  enrichmentSink: EnrichmentSink | null = null;

  constructor(deps: CoreDeps) {
    this.deps = deps;
  }

  async store(input: StoreMemoryInput): Promise<StoreMemoryOutput> {
    const userId = requireId(input.user_id, 'user_id');
    // Secrets are redacted or refused before anything else sees the text (seed 000 §10).
    const guardedContent = guardText(requireContent(input.content), this.deps.config);
    const content = guardedContent.content;
    assertValidClassification(input.memory_category, input.memory_subtype);
    const keywords = requireStringList(input.keywords, 'keywords', LIMITS.searchKeys, LIMITS.tagChars);
    const givenMetadata = requireMetadata(input.metadata);
    // Search keys live in metadata (searchKeys.ts), so they pass the same secret guard as the rest of it.
    const keyedMetadata =
      keywords.length > 0
        ? withSearchKeys(
            givenMetadata,
            keywords,
            { by: 'agent', at: this.deps.clock.now().toISOString() },
            LIMITS.searchKeys,
          )
        : givenMetadata;
    const guardedMetadata = guardJson(keyedMetadata, this.deps.config);
    const metadata = guardedMetadata.value;
    const tags = requireStringList(
      Array.isArray(metadata.tags) ? (metadata.tags as string[]) : undefined,
      'metadata.tags',
      LIMITS.tags,
      LIMITS.tagChars,
    );
    // Entities given by the caller are stored and searched like content, so they pass the same gate.
    const guardedEntities = guardJson(
      requireStringList(input.entities, 'entities', LIMITS.entities, LIMITS.entityChars),
      this.deps.config,
      'entities',
    );
    const given = guardedEntities.value;
    const redactions = mergeRedactions(
      guardedContent.redactions,
      guardedMetadata.redactions,
      guardedEntities.redactions,
    );
    const extracted = given.length === 0 ? extractEntities(content).slice(0, LIMITS.entities) : [];
    const anchors = await anchorsForStore(this.deps.anchors, {
      anchors: input.anchors,
      metadata: input.metadata,
      content,
    });
    if (anchors.length > 0) metadata[ANCHORS_FIELD] = anchors;
    else delete metadata[ANCHORS_FIELD];
    const entities = withAnchorEntities(given.length > 0 ? normaliseEntities(given) : extracted, anchors).slice(
      0,
      LIMITS.entities,
    );
    const scope = scopeFor(
      input.layer === undefined ? 'user' : requireLayer(input.layer),
      identifiersFrom({ ...input, user_id: userId, project_id: input.project_id ?? undefined }),
    );
    const partition = scope.partition;
    await requireOwnSession(this.deps.store, userId, input.session_id);
    const projectId =
      scope.layer === 'project'
        ? scope.scope_id
        : input.project_id === undefined || input.project_id === null
          ? null
          : requireId(input.project_id, 'project_id');
    const now = this.deps.clock.now().toISOString();

    const superseded = input.supersedes
      ? await this.requireMemory(partition, requireId(input.supersedes, 'supersedes'))
      : null;
    const embedding = await this.deps.embeddings.embed(content);
    const stored: StoredEmbedding | null =
      embedding.vector && this.deps.embeddings.model
        ? { model: this.deps.embeddings.model, vector: embedding.vector }
        : null;

    const probe: DuplicateProbe = {
      scope: scopeRef(scope),
      project_id: projectId,
      content,
      terms: dedupTerms(content),
      embedding: stored,
      fact: factIdentity(metadata),
    };
    const duplicateOf: StoreDraft = {
      input,
      metadata,
      keywords,
      entities,
      tags,
      content,
      stored,
      extracted,
      redactions,
      now,
      embedding_status: embedding.status,
    };
    // The mark is read before the search: whatever is written after it, the insert checks in its own write.
    let mark = superseded ? '' : await this.deps.store.duplicateMark(partition);
    let similar = superseded ? null : await this.findMostSimilar(partition, probe);
    if (similar && similar.similarity >= this.deps.config.dedupThreshold) {
      const merged = await this.mergeIntoDuplicate(similar, duplicateOf);
      if (merged) return merged;
    }

    // A new statement that contradicts a live one corrects it, exactly like an explicit `supersedes`.
    const conflict = superseded
      ? null
      : await findStoreConflict(this.deps, {
          user_id: partition,
          scopes: [scopeRef(scope)],
          project_id: projectId,
          content,
          memory_category: input.memory_category,
          metadata,
        });
    const replaced = superseded ?? conflict?.memory ?? null;

    const memory: MemoryRecord = this.forEnrichment({
      memory_id: newId('mem'),
      user_id: partition,
      layer: scope.layer,
      scope_id: scope.scope_id,
      org_id: input.org_id ? requireId(input.org_id, 'org_id') : null,
      project_id: projectId,
      memory_category: input.memory_category,
      memory_subtype: input.memory_subtype,
      content,
      summary: null,
      entities,
      tags,
      // A shared layer's memory names who wrote it; a personal layer's partition already does.
      metadata: isSharedLayer(scope.layer) ? { ...metadata, created_by: userId } : metadata,
      event_time: input.event_time ? parseIsoTimestamp(input.event_time, 'event_time') : null,
      is_temporal: input.event_time !== undefined || input.memory_category === 'episodic',
      importance: requireUnitInterval(input.importance, 'importance', 0.5),
      access_count: 0,
      decay_factor: 1,
      related_memories: replaced ? [replaced.memory_id] : [],
      supersedes: replaced?.memory_id ?? null,
      superseded_by: null,
      source_session: input.session_id ? requireId(input.session_id, 'session_id') : null,
      source_type: input.source_type ?? 'explicit',
      confidence: requireUnitInterval(input.confidence, 'confidence', 1),
      pinned: input.pinned ?? false,
      embedding_model: stored?.model ?? null,
      created_at: now,
      last_accessed: now,
      updated_at: now,
      deleted_at: null,
      version: 1,
    });
    // The duplicate check and the insert are one write (issue 35.4): an identical store racing this
    // one, in this process or another, is found inside it and this one merges into it instead.
    for (let attempt = 1; ; attempt++) {
      const outcome = superseded
        ? await this.deps.store.insertMemory(memory, stored).then(() => ({ status: 'inserted' }) as const)
        : await this.deps.store.insertUnlessDuplicate(memory, stored, this.duplicateGuard(mark, partition, probe));
      if (outcome.status === 'inserted') break;
      if (outcome.status === 'duplicate') {
        similar = outcome;
        const merged = await this.mergeIntoDuplicate(outcome, duplicateOf);
        if (merged) return merged;
      }
      if (attempt >= GUARDED_INSERT_ATTEMPTS)
        throw new MemoryError(
          'PROVIDER_ERROR',
          `The store kept changing while a duplicate of this memory was looked for (${attempt} attempts); retry.`,
          { details: { attempts: attempt } },
        );
      // The store could not tell what changed since the search, or the duplicate was forgotten
      // meanwhile: search again from a new mark.
      mark = await this.deps.store.duplicateMark(partition);
      similar = await this.findMostSimilar(partition, probe);
      if (similar && similar.similarity >= this.deps.config.dedupThreshold) {
        const merged = await this.mergeIntoDuplicate(similar, duplicateOf);
        if (merged) return merged;
      }
    }
    if (replaced) {
      await this.deps.store.changeMemory({
        user_id: replaced.user_id,
        memory_id: replaced.memory_id,
        change: { set: { superseded_by: memory.memory_id }, cap_confidence: 0.5, add_related: [memory.memory_id] },
        at: now,
        // The user named it (or it contradicts): mark it even if edited since, but a forgotten one stays as it is.
        if_forgotten: 'drop',
      });
    }
    this.deps.events.emit({ type: 'memory', user_id: partition, memory_ids: [memory.memory_id], change: 'created' });
    this.queueEnrichment(memory);
    return {
      memory_id: memory.memory_id,
      entities_extracted: extracted,
      ...(similar && similar.similarity >= this.deps.config.similarThreshold
        ? { similar_existing: this.describeSimilar(similar.memory, similar.similarity, 'created_new') }
        : {}),
      ...(conflict
        ? {
            contradicts: {
              memory_id: conflict.memory.memory_id,
              kind: conflict.contradiction.kind,
              reason: conflict.contradiction.reason,
            },
          }
        : {}),
      embedding_status: embedding.status,
      redactions,
    };
  }

  /**
   * Merges the new memory into its near-duplicate: the row as it is now, new text only over the
   * version it was compared with. Null when the duplicate was forgotten meanwhile (it takes nothing;
   * the caller stores the memory as a new one).
   */
  private async mergeIntoDuplicate(
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
    const edited = contentChanged ? this.forEnrichment(base) : base;
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
      if (contentChanged) this.queueEnrichment(merged);
      return {
        memory_id: merged.memory_id,
        entities_extracted: extracted,
        similar_existing: this.describeSimilar(similar.memory, similar.similarity, action),
        embedding_status: draft.embedding_status,
        redactions,
      };
    }
    return null;
  }

  /** What the store checks inside the insert's write (DuplicateGuard): the same rule as the search. */
  private duplicateGuard(mark: string, partition: string, probe: DuplicateProbe): DuplicateGuard {
    return {
      mark,
      candidates: {
        filter: { user_id: partition, project_id: probe.project_id, scopes: [probe.scope] },
        terms: probe.terms,
        limit: DEDUP_CANDIDATES,
      },
      wantsEmbeddings: probe.embedding !== null,
      similarity: (candidate, embedding) => duplicateSimilarity(probe, candidate, embedding),
      threshold: this.deps.config.dedupThreshold,
    };
  }

  async update(input: UpdateMemoryInput): Promise<UpdateMemoryOutput> {
    const userId = partitionForCall(input);
    const existing = await this.requireMemory(userId, requireId(input.memory_id, 'memory_id'));
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
    const wanted = contentChanged ? this.forEnrichment(edited) : edited;
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
    if (contentChanged) this.queueEnrichment(updated);
    const redactions = mergeRedactions(
      guardedContent?.redactions ?? [],
      guardedMetadata?.redactions ?? [],
      guardedTags?.redactions ?? [],
      guardedEntities?.redactions ?? [],
    );
    return { success: true, re_embedded: embedding !== undefined && embedding !== null, memory: updated, redactions };
  }

  /**
   * Forgets one memory (`memory_id`) or many (`memory_ids`) in one store write. One id that does
   * not exist is MEMORY_NOT_FOUND; in a batch, ids that do not exist are listed in `not_found` and
   * the others are forgotten (MEMORY_NOT_FOUND only when none exists).
   */
  async forget(input: ForgetMemoryInput): Promise<ForgetMemoryOutput> {
    const userId = partitionForCall(input);
    const ids = forgetIds(input);
    if (input.hard_delete) {
      // Queued access-log rows (with the queries that found it) are written first, so the delete
      // takes them too instead of a later flush bringing them back.
      await this.deps.access.flush();
      const removed: string[] = [];
      const notFound: string[] = [];
      for (const id of ids) {
        if (await this.deps.store.hardDeleteMemory(userId, id)) removed.push(id);
        else notFound.push(id);
      }
      this.requireSomeFound(ids, notFound);
      if (removed.length > 0)
        this.deps.events.emit({ type: 'memory', user_id: userId, memory_ids: removed, change: 'purged' });
      return { success: true, hard_deleted: true, forgotten: removed, not_found: notFound };
    }
    const now = this.deps.clock.now().toISOString();
    const outcome = await this.deps.store.forgetMemories(userId, ids, now);
    this.requireSomeFound(ids, outcome.missing);
    if (outcome.changed.length > 0)
      this.deps.events.emit({ type: 'memory', user_id: userId, memory_ids: outcome.changed, change: 'deleted' });
    return {
      success: true,
      hard_deleted: false,
      forgotten: [...outcome.changed, ...outcome.unchanged],
      not_found: outcome.missing,
    };
  }

  private requireSomeFound(ids: readonly string[], missing: readonly string[]): void {
    if (missing.length < ids.length) return;
    throw new MemoryError(
      'MEMORY_NOT_FOUND',
      ids.length === 1
        ? `No memory ${ids[0]} exists for this user.`
        : `None of the ${ids.length} memories exists for this user.`,
      { details: ids.length === 1 ? { memory_id: ids[0] } : { memory_ids: [...ids] } },
    );
  }

  async restore(userId: string, memoryId: string): Promise<MemoryRecord> {
    const [restored] = await this.restoreMany(userId, [memoryId]);
    return restored;
  }

  /** The undo of forget: the only way deleted_at is cleared. One store write for all ids. */
  async restoreMany(userId: string, memoryIds: readonly string[]): Promise<MemoryRecord[]> {
    const user = requireId(userId, 'user_id');
    const ids = memoryIds.map((id) => requireId(id, 'memory_id'));
    const outcome = await this.deps.store.restoreMemories(user, ids, this.deps.clock.now().toISOString());
    this.requireSomeFound(ids, outcome.missing);
    if (outcome.changed.length > 0)
      this.deps.events.emit({ type: 'memory', user_id: user, memory_ids: outcome.changed, change: 'restored' });
    return this.deps.store.getMemories(user, ids);
  }

  async forgetAll(input: ForgetAllInput): Promise<ForgetAllOutput> {
    const userId = requireId(input.user_id, 'user_id');
    if (input.confirmation !== FORGET_ALL_CONFIRMATION) {
      throw new MemoryError(
        'CONFIRMATION_REQUIRED',
        `To delete every memory of ${userId}, pass confirmation exactly "${FORGET_ALL_CONFIRMATION}".`,
        {
          details: { field: 'confirmation' },
        },
      );
    }
    // As for hard deletes: queued access-log rows must not land after the erasure.
    await this.deps.access.flush();
    const receipt = await this.deps.store.deleteUser(userId);
    this.deps.events.emit({ type: 'user-cleared', user_id: userId });
    return receipt;
  }

  /** The user's own edit of a memory's search keys (the panel): added keys are the user's, removed ones stay removed. */
  async editSearchKeys(input: EditSearchKeysInput): Promise<MemoryRecord> {
    const userId = requireId(input.user_id, 'user_id');
    const memory = await this.requireMemory(userId, requireId(input.memory_id, 'memory_id'));
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

  async get(userId: string, memoryId: string): Promise<MemoryRecord> {
    return this.requireMemory(requireId(userId, 'user_id'), requireId(memoryId, 'memory_id'));
  }

  /** The record as it is written while enrichment runs: tagged pending, unless it waits for extraction first. */
  private forEnrichment(memory: MemoryRecord): MemoryRecord {
    if (!this.enrichmentSink?.enriching || memory.tags.includes(EXTRACTION_PENDING_TAG)) return memory;
    return markedPending(memory);
  }

  /** After the write is acknowledged: the queue only takes the id, the model runs later. */
  private queueEnrichment(memory: MemoryRecord): void {
    if (!this.enrichmentSink?.enriching || memory.tags.includes(EXTRACTION_PENDING_TAG)) return;
    this.enrichmentSink.enqueue({ user_id: memory.user_id, memory_id: memory.memory_id, task: 'enrich' });
  }

  /** Another user's id is reported exactly like a missing one, so ids leak nothing. */
  private async requireMemory(userId: string, memoryId: string): Promise<MemoryRecord> {
    const [memory] = await this.deps.store.getMemories(userId, [memoryId]);
    if (!memory) {
      throw new MemoryError('MEMORY_NOT_FOUND', `No memory ${memoryId} exists for user ${userId}.`, {
        details: { memory_id: memoryId },
      });
    }
    return memory;
  }

  /**
   * The closest memory that could be a duplicate (duplicateSimilarity: same layer scope, project and
   * fact, live): a duplicate in another layer is not one here.
   */
  private async findMostSimilar(
    partition: string,
    probe: DuplicateProbe,
  ): Promise<{ memory: MemoryRecord; similarity: number } | null> {
    const filter = { user_id: partition, project_id: probe.project_id, scopes: [probe.scope] };
    const terms = probe.terms;
    // Duplicates share their words, so full-text finds the candidates; vectors only refine the
    // similarity of those few, which spares a vector scan on every store.
    const lexical =
      terms.length > 0 ? await this.deps.store.searchLexical({ filter, terms, limit: DEDUP_CANDIDATES }) : [];
    const ids = lexical.map((hit) => hit.memory_id);
    if (ids.length === 0) return null;
    const [candidates, vectors] = await Promise.all([
      this.deps.store.getMemories(partition, ids),
      probe.embedding
        ? this.deps.store.getEmbeddings(partition, ids)
        : Promise.resolve(new Map<string, StoredEmbedding>()),
    ]);
    let best: { memory: MemoryRecord; similarity: number } | null = null;
    for (const memory of candidates) {
      const similarity = duplicateSimilarity(probe, memory, vectors.get(memory.memory_id) ?? null);
      if (similarity > 0 && (!best || similarity > best.similarity)) best = { memory, similarity };
    }
    return best;
  }

  private describeSimilar(
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
}
