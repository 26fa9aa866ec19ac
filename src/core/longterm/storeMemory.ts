import type { StoreMemoryInput, StoreMemoryOutput } from '../api/longTermApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { assertValidClassification } from '../domain/taxonomy.ts';
import { extractEntities, normaliseEntities } from '../entities/extractEntities.ts';
import { requireLayer } from '../domain/layers.ts';
import { identifiersFrom, isSharedLayer, scopeFor, scopeRef } from '../layers/layerScope.ts';
import { findStoreConflict } from '../lifecycle/contradictionCandidates.ts';
import { factIdentity } from '../facts/factModel.ts';
import { guardJson, guardText, mergeRedactions } from '../safety/contentGuard.ts';
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
import { duplicateProbeOf, type DuplicateProbe } from './duplicateProbe.ts';
import type { DuplicateGuard } from '../ports/duplicateGuard.ts';
import { requireOwnSession } from '../working/sessionOwnership.ts';
import { withSearchKeys } from '../text/searchKeys.ts';
import { ANCHORS_FIELD } from '../anchors/anchorModel.ts';
import { anchorsForStore, withAnchorEntities } from '../anchors/storeAnchors.ts';
import { dedupTermsOf, DuplicateSearch } from './duplicateSearch.ts';
import { analyzeQueryOfContent } from '../text/analyzer.ts';
import { describeSimilar, DuplicateMerge, type StoreDraft } from './duplicateMerge.ts';
import type { EnrichmentHook } from './enrichmentHook.ts';
import { requireMemory } from './requireMemory.ts';

/** Guarded inserts tried before giving up: a store that keeps changing under the check (see the loop). */
const GUARDED_INSERT_ATTEMPTS = 3;

/** store_memory: a new memory, merged into its near-duplicate or correcting what it contradicts. */
export class StoreMemory {
  private readonly deps: CoreDeps;
  private readonly enrichment: EnrichmentHook;
  private readonly duplicates: DuplicateSearch;
  private readonly merging: DuplicateMerge;

  constructor(deps: CoreDeps, enrichment: EnrichmentHook) {
    this.deps = deps;
    this.enrichment = enrichment;
    this.duplicates = new DuplicateSearch(deps);
    this.merging = new DuplicateMerge(deps, enrichment);
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
      ? await requireMemory(this.deps.store, partition, requireId(input.supersedes, 'supersedes'))
      : null;
    const embedding = await this.deps.embeddings.embed(content);
    const stored: StoredEmbedding | null =
      embedding.vector && this.deps.embeddings.model
        ? { model: this.deps.embeddings.model, vector: embedding.vector }
        : null;

    // One analysis of the content for both searches (and, kept by the analyzer, the insert's index entry).
    const contentTerms = analyzeQueryOfContent(content);
    const probe = duplicateProbeOf({
      scope: scopeRef(scope),
      project_id: projectId,
      content,
      terms: dedupTermsOf(contentTerms),
      embedding: stored,
      fact: factIdentity(metadata),
    });
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
          terms: contentTerms,
        });
    const replaced = superseded ?? conflict?.memory ?? null;

    const memory: MemoryRecord = this.enrichment.forEnrichment({
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
    this.enrichment.queueEnrichment(memory);
    return {
      memory_id: memory.memory_id,
      entities_extracted: extracted,
      ...(similar && similar.similarity >= this.deps.config.similarThreshold
        ? { similar_existing: describeSimilar(similar.memory, similar.similarity, 'created_new') }
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

  private mergeIntoDuplicate(
    similar: { memory: MemoryRecord; similarity: number },
    draft: StoreDraft,
  ): Promise<StoreMemoryOutput | null> {
    return this.merging.mergeIntoDuplicate(similar, draft);
  }

  /** The closest candidate when this store reports it (similar_existing) or merges into it; null below both. */
  private findMostSimilar(
    partition: string,
    probe: DuplicateProbe,
  ): Promise<{ memory: MemoryRecord; similarity: number } | null> {
    const { similarThreshold, dedupThreshold } = this.deps.config;
    return this.duplicates.findMostSimilar(partition, probe, Math.min(similarThreshold, dedupThreshold));
  }

  private duplicateGuard(mark: string, partition: string, probe: DuplicateProbe): DuplicateGuard {
    return this.duplicates.guard(mark, partition, probe);
  }
}
