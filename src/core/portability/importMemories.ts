import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type {
  MemoryRecord,
  SessionRecord,
  SourceType,
  WorkingContentType,
  WorkingItemRecord,
} from '../domain/records.ts';
import { WORKING_CONTENT_TYPES } from '../domain/workingContentTypes.ts';
import { assertValidClassification } from '../domain/taxonomy.ts';
import { guardJson, guardText, mergeRedactions, type Redaction } from '../safety/contentGuard.ts';
import { sha256Hex } from '../util/sha256.ts';
import { LIMITS, requireContent, requireId, requireMetadata } from '../validation.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from './exportFormat.ts';
import { YieldEvery } from '../util/yieldEvery.ts';
import { isCalendarTimestamp } from '../util/time.ts';

export interface ImportOutput {
  memories_imported: number;
  memories_skipped: number;
  sessions_imported: number;
  sessions_skipped: number;
  working_items_imported: number;
  /** Ids that had to change (they belong to someone else in this store), original → new. */
  remapped_ids: Record<string, string>;
  redactions: Redaction[];
}

const SOURCE_TYPES: readonly SourceType[] = [
  'conversation',
  'explicit',
  'inferred',
  'observed',
  'editor',
  'extraction',
  'working_memory',
];

/**
 * import_memories: loads an export into `userId`'s memory. Idempotent by memory_id: a memory
 * the user already has is skipped, so importing the same file twice changes nothing. Every
 * record is re-owned by the importing user. An id this user does not have is given a new id
 * derived from (user, original id): the store port cannot tell whether another user holds the
 * original, and an import must never overwrite or collide with someone else's memory. The
 * derived id is stable, so re-importing stays idempotent. Content passes the secret gate.
 */
export async function importMemories(deps: CoreDeps, userId: string, data: unknown): Promise<ImportOutput> {
  const user = requireId(userId, 'user_id');
  const parsed = validateExport(data);
  // Everything is validated, guarded and built before the first write: a bad record anywhere in
  // the file (or a secret under the refuse policy) fails the import with nothing written.
  const plan = await planImport(deps, user, parsed);
  await writePlan(deps, plan);
  if (plan.memories.length > 0)
    deps.events.emit({
      type: 'memory',
      user_id: user,
      memory_ids: plan.memories.map((memory) => memory.memory_id),
      change: 'created',
    });
  return {
    memories_imported: plan.memories.length,
    memories_skipped: plan.memoriesSkipped,
    sessions_imported: plan.sessions.length,
    sessions_skipped: plan.sessionsSkipped,
    working_items_imported: plan.sessions.reduce((total, change) => total + change.upsert.length, 0),
    remapped_ids: plan.remapped,
    redactions: mergeRedactions(...plan.redactions),
  };
}

interface ImportPlan {
  memories: MemoryRecord[];
  memoriesSkipped: number;
  sessions: Array<{ session: SessionRecord; upsert: WorkingItemRecord[] }>;
  sessionsSkipped: number;
  remapped: Record<string, string>;
  redactions: Redaction[][];
}

async function planImport(deps: CoreDeps, user: string, parsed: ParsedExport): Promise<ImportPlan> {
  const originalIds = parsed.memories.map((memory) => memory.memory_id);
  const derived = new Map(originalIds.map((id) => [id, derivedId('mem', user, id)]));
  const existing = new Set(
    (await deps.store.getMemories(user, [...originalIds, ...derived.values()])).map((memory) => memory.memory_id),
  );
  // Ids the user already has keep their id (their own re-import); the rest get the derived id.
  const idFor = (id: string) => (existing.has(id) ? id : (derived.get(id) ?? derivedId('mem', user, id)));
  const plan: ImportPlan = {
    memories: [],
    memoriesSkipped: 0,
    sessions: [],
    sessionsSkipped: 0,
    remapped: {},
    redactions: [],
  };
  const planned = new Set<string>();
  const slice = new YieldEvery(100);
  for (const memory of parsed.memories) {
    await slice.step();
    const id = idFor(memory.memory_id);
    if (existing.has(id) || planned.has(id)) {
      plan.memoriesSkipped++;
      continue;
    }
    if (id !== memory.memory_id) plan.remapped[memory.memory_id] = id;
    const content = guardText(requireContent(memory.content), deps.config);
    const metadata = guardJson(memory.metadata, deps.config);
    plan.redactions.push(content.redactions, metadata.redactions);
    const record: MemoryRecord = {
      ...memory,
      memory_id: id,
      user_id: user,
      // The user layer is scoped by the user id, which is the importing user's now.
      scope_id: memory.layer === 'user' ? user : memory.scope_id,
      content: content.content,
      metadata: metadata.value,
      related_memories: memory.related_memories.map(idFor),
      supersedes: memory.supersedes ? idFor(memory.supersedes) : null,
      superseded_by: memory.superseded_by ? idFor(memory.superseded_by) : null,
      // The embedding is not in the export; lazy re-embedding (backfillEmbeddings) creates it.
      embedding_model: null,
    };
    delete (record as Partial<{ deleted: boolean }>).deleted;
    plan.memories.push(record);
    planned.add(id);
  }

  const sessionIds = new Set(parsed.sessions.map((session) => session.session_id));
  const orphan = parsed.working_items.findIndex((item) => !sessionIds.has(item.session_id));
  if (orphan !== -1)
    throw invalid(
      `working_items[${orphan}].session_id names no session of the file.`,
      `working_items[${orphan}].session_id`,
    );
  for (const [index, session] of parsed.sessions.entries()) {
    const current = await deps.store.getSession(session.session_id);
    const sessionId =
      current && current.user_id !== user ? derivedId('sess', user, session.session_id) : session.session_id;
    const owned = current?.user_id === user ? current : await deps.store.getSession(sessionId);
    if (owned || plan.sessions.some((entry) => entry.session.session_id === sessionId)) {
      plan.sessionsSkipped++;
      continue;
    }
    if (sessionId !== session.session_id) plan.remapped[session.session_id] = sessionId;
    const items = parsed.working_items
      .filter((item) => item.session_id === session.session_id)
      .map((item): WorkingItemRecord => {
        const guarded = guardText(requireContent(item.content), deps.config);
        const metadata = guardJson(item.metadata, deps.config);
        plan.redactions.push(guarded.redactions, metadata.redactions);
        // Token counts are recounted, never taken from the file: they are the session's budget.
        return {
          ...item,
          session_id: sessionId,
          user_id: user,
          content: guarded.content,
          metadata: metadata.value,
          token_count: deps.tokens.count(guarded.content),
          item_id: derivedId('wmi', user, `${sessionId}/${item.item_id}`),
        };
      });
    // A session's config is free-form JSON from the file: it passes the same gate as metadata.
    const config = guardJson(session.config, deps.config, 'config');
    plan.redactions.push(config.redactions);
    const totalTokens = items.reduce((total, item) => total + item.token_count, 0);
    if (totalTokens > session.max_tokens) {
      throw invalid(
        `sessions[${index}] holds ${totalTokens} tokens of working items but its max_tokens is ${session.max_tokens}.`,
        `sessions[${index}].max_tokens`,
      );
    }
    const nextSequence = Math.max(session.next_sequence, ...items.map((item) => item.sequence_num + 1));
    plan.sessions.push({
      session: {
        ...session,
        config: config.value,
        session_id: sessionId,
        user_id: user,
        total_tokens: totalTokens,
        next_sequence: nextSequence,
      },
      upsert: items,
    });
  }
  return plan;
}

/**
 * Writes a validated plan. Should the store fail part-way (disk full, backend down), what this
 * import wrote is removed again before the error is reported, so the import is all or nothing.
 */
async function writePlan(deps: CoreDeps, plan: ImportPlan): Promise<void> {
  const writtenMemories: MemoryRecord[] = [];
  const writtenSessions: Array<{ session: SessionRecord; upsert: WorkingItemRecord[] }> = [];
  try {
    for (const memory of plan.memories) {
      await deps.store.insertMemory(memory, null);
      writtenMemories.push(memory);
    }
    for (const change of plan.sessions) {
      await deps.store.commitWorking({ session: change.session, upsert: change.upsert, delete: [] });
      writtenSessions.push(change);
    }
  } catch (error) {
    try {
      // An undo, not an erasure: nobody saw these rows, and a retry of the import must store the ids.
      for (const memory of writtenMemories) await deps.store.hardDeleteMemory(memory.user_id, memory.memory_id, 'undo');
      // Only sessions the import created are written (existing ones are skipped), so removing them is safe.
      for (const change of writtenSessions) await deps.store.deleteSession(change.session.user_id, change.session.session_id);
    } catch (undoError) {
      throw new MemoryError(
        'PROVIDER_ERROR',
        `Import failed and could not be fully undone; ${writtenMemories.length} memories may remain. First failure: ${String(error instanceof Error ? error.message : error)}`,
        { cause: undoError, operation: 'import_memories' },
      );
    }
    throw error;
  }
}

function derivedId(prefix: 'mem' | 'sess' | 'wmi', userId: string, original: string): string {
  return `${prefix}_${sha256Hex(`${userId}\u0000${original}`).slice(0, 32)}`;
}

interface ParsedExport {
  memories: MemoryRecord[];
  sessions: SessionRecord[];
  working_items: WorkingItemRecord[];
}

function invalid(message: string, field: string): MemoryError {
  return new MemoryError('INVALID_INPUT', `Not a valid memory export: ${message}`, { details: { field } });
}

/** Checks the shape field by field, so a hand-edited or foreign file fails with the field named. */
export function validateExport(data: unknown): ParsedExport {
  if (!isObject(data)) throw invalid('expected a JSON object.', 'data');
  if (data.format !== EXPORT_FORMAT) throw invalid(`format must be "${EXPORT_FORMAT}".`, 'format');
  if (data.format_version !== EXPORT_FORMAT_VERSION)
    throw invalid(
      `format_version ${String(data.format_version)} is not supported (this server reads ${EXPORT_FORMAT_VERSION}).`,
      'format_version',
    );
  if (!Array.isArray(data.memories)) throw invalid('memories must be an array.', 'memories');
  const sessions = data.sessions === undefined ? [] : data.sessions;
  const items = data.working_items === undefined ? [] : data.working_items;
  if (!Array.isArray(sessions)) throw invalid('sessions must be an array.', 'sessions');
  if (!Array.isArray(items)) throw invalid('working_items must be an array.', 'working_items');
  const memories = data.memories.map((raw, index) => memoryOf(raw, `memories[${index}]`));
  return {
    memories,
    sessions: sessions.map((raw, index) => sessionOf(raw, `sessions[${index}]`)),
    working_items: items.map((raw, index) => itemOf(raw, `working_items[${index}]`)),
  };
}

function memoryOf(raw: unknown, at: string): MemoryRecord {
  if (!isObject(raw)) throw invalid(`${at} must be an object.`, at);
  requireId(raw.memory_id, `${at}.memory_id`);
  if (typeof raw.content !== 'string') throw invalid(`${at}.content must be a string.`, `${at}.content`);
  assertValidClassification(String(raw.memory_category), String(raw.memory_subtype));
  const strings = (value: unknown, field: string): string[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string'))
      throw invalid(`${at}.${field} must be a list of strings.`, `${at}.${field}`);
    return value as string[];
  };
  const unit = (value: unknown, field: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !(value >= 0 && value <= 1))
      throw invalid(`${at}.${field} must be a number from 0 to 1.`, `${at}.${field}`);
    return value;
  };
  const time = (value: unknown, field: string, nullable: boolean): string | null => {
    if ((value === null || value === undefined) && nullable) return null;
    if (typeof value !== 'string' || !isCalendarTimestamp(value))
      throw invalid(`${at}.${field} must be an ISO-8601 time on a real calendar date.`, `${at}.${field}`);
    return new Date(value).toISOString();
  };
  const optionalId = (value: unknown, field: string): string | null =>
    value === null || value === undefined ? null : requireId(value, `${at}.${field}`);
  const created = time(raw.created_at, 'created_at', false) as string;
  const sourceType = raw.source_type === undefined ? 'explicit' : raw.source_type;
  if (!SOURCE_TYPES.includes(sourceType as SourceType))
    throw invalid(`${at}.source_type must be one of ${SOURCE_TYPES.join(', ')}.`, `${at}.source_type`);
  if (raw.metadata !== undefined && !isObject(raw.metadata))
    throw invalid(`${at}.metadata must be an object.`, `${at}.metadata`);
  // An export holds one user's partition: the personal layers. Files from before layers are user layer.
  const layer = raw.layer === undefined ? 'user' : raw.layer;
  if (layer !== 'user' && layer !== 'agent' && layer !== 'session')
    throw invalid(
      `${at}.layer must be user, agent or session; shared layers are not part of a user's export.`,
      `${at}.layer`,
    );
  const scopeId = layer === 'user' ? '' : requireId(raw.scope_id, `${at}.scope_id`);
  return {
    memory_id: raw.memory_id as string,
    user_id: '',
    layer,
    scope_id: scopeId,
    org_id: optionalId(raw.org_id, 'org_id'),
    project_id: optionalId(raw.project_id, 'project_id'),
    memory_category: raw.memory_category as MemoryRecord['memory_category'],
    memory_subtype: raw.memory_subtype as MemoryRecord['memory_subtype'],
    content: raw.content,
    summary: typeof raw.summary === 'string' ? raw.summary : null,
    entities: strings(raw.entities, 'entities'),
    tags: strings(raw.tags, 'tags'),
    metadata: (raw.metadata as Record<string, unknown> | undefined) ?? {},
    event_time: time(raw.event_time, 'event_time', true),
    is_temporal: raw.is_temporal === true,
    importance: unit(raw.importance, 'importance', 0.5),
    access_count: typeof raw.access_count === 'number' && raw.access_count >= 0 ? Math.floor(raw.access_count) : 0,
    decay_factor: unit(raw.decay_factor, 'decay_factor', 1),
    related_memories: strings(raw.related_memories, 'related_memories'),
    supersedes: optionalId(raw.supersedes, 'supersedes'),
    superseded_by: optionalId(raw.superseded_by, 'superseded_by'),
    source_session: optionalId(raw.source_session, 'source_session'),
    source_type: sourceType as SourceType,
    confidence: unit(raw.confidence, 'confidence', 1),
    pinned: raw.pinned === true,
    embedding_model: null,
    created_at: created,
    last_accessed: time(raw.last_accessed, 'last_accessed', true) ?? created,
    updated_at: time(raw.updated_at, 'updated_at', true) ?? created,
    deleted_at: time(raw.deleted_at, 'deleted_at', true),
    // An imported memory starts its own history here.
    version: 1,
  };
}

function sessionOf(raw: unknown, at: string): SessionRecord {
  if (!isObject(raw)) throw invalid(`${at} must be an object.`, at);
  const sessionId = requireId(raw.session_id, `${at}.session_id`);
  if (!['lru', 'relevance', 'hybrid'].includes(raw.eviction_policy as string))
    throw invalid(`${at}.eviction_policy must be lru, relevance or hybrid.`, `${at}.eviction_policy`);
  const created = isoTime(raw.created_at, `${at}.created_at`, false) as string;
  return {
    session_id: sessionId,
    user_id: '',
    org_id: optionalIdOf(raw.org_id, `${at}.org_id`),
    project_id: optionalIdOf(raw.project_id, `${at}.project_id`),
    // The same bounds init_session puts on a budget.
    max_tokens: wholeNumber(raw.max_tokens, `${at}.max_tokens`, 1, LIMITS.maxTokens),
    // Recomputed from the items on import; checked only so a broken file is named.
    total_tokens: wholeNumber(raw.total_tokens ?? 0, `${at}.total_tokens`, 0, LIMITS.maxTokens),
    eviction_policy: raw.eviction_policy as SessionRecord['eviction_policy'],
    next_sequence: wholeNumber(raw.next_sequence, `${at}.next_sequence`, 1, Number.MAX_SAFE_INTEGER),
    created_at: created,
    last_activity: isoTime(raw.last_activity, `${at}.last_activity`, true) ?? created,
    expires_at: isoTime(raw.expires_at, `${at}.expires_at`, true),
    config: raw.config === undefined ? {} : requireMetadataAt(raw.config, `${at}.config`),
  };
}

function itemOf(raw: unknown, at: string): WorkingItemRecord {
  if (!isObject(raw)) throw invalid(`${at} must be an object.`, at);
  const itemId = requireId(raw.item_id, `${at}.item_id`);
  const sessionId = requireId(raw.session_id, `${at}.session_id`);
  if (typeof raw.content !== 'string') throw invalid(`${at}.content must be a string.`, `${at}.content`);
  if (!WORKING_CONTENT_TYPES.includes(raw.content_type as WorkingContentType)) {
    throw invalid(`${at}.content_type must be one of ${WORKING_CONTENT_TYPES.join(', ')}.`, `${at}.content_type`);
  }
  if (raw.pinned !== undefined && typeof raw.pinned !== 'boolean')
    throw invalid(`${at}.pinned must be true or false.`, `${at}.pinned`);
  const relevance = raw.relevance_score ?? 1;
  if (typeof relevance !== 'number' || !(relevance >= 0 && relevance <= 1))
    throw invalid(`${at}.relevance_score must be a number from 0 to 1.`, `${at}.relevance_score`);
  const created = isoTime(raw.created_at, `${at}.created_at`, false) as string;
  return {
    item_id: itemId,
    session_id: sessionId,
    user_id: '',
    content_type: raw.content_type as WorkingContentType,
    content: requireContent(raw.content, `${at}.content`),
    // Recounted on import; the file's count is checked only for its type.
    token_count: wholeNumber(raw.token_count ?? 0, `${at}.token_count`, 0, LIMITS.maxTokens),
    relevance_score: relevance,
    pinned: raw.pinned === true,
    sequence_num: wholeNumber(raw.sequence_num, `${at}.sequence_num`, 0, Number.MAX_SAFE_INTEGER),
    created_at: created,
    last_accessed: isoTime(raw.last_accessed, `${at}.last_accessed`, true) ?? created,
    metadata: raw.metadata === undefined ? {} : requireMetadataAt(raw.metadata, `${at}.metadata`),
  };
}

function wholeNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw invalid(`${field} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}.`, field);
  return value;
}

// The export's own form: a 'T' between date and time, as the exporter writes it.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function isoTime(value: unknown, field: string, nullable: boolean): string | null {
  if ((value === null || value === undefined) && nullable) return null;
  if (typeof value !== 'string' || !ISO_TIME.test(value) || !isCalendarTimestamp(value))
    throw invalid(`${field} must be an ISO-8601 time on a real calendar date.`, field);
  return new Date(value).toISOString();
}

function optionalIdOf(value: unknown, field: string): string | null {
  return value === null || value === undefined ? null : requireId(value, field);
}

function requireMetadataAt(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw invalid(`${field} must be an object.`, field);
  try {
    return requireMetadata(value);
  } catch (error) {
    if (MemoryError.is(error)) throw invalid(`${field}: ${error.message}`, field);
    throw error;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
