import { createHash } from 'node:crypto';
import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord, SessionRecord, SourceType, WorkingItemRecord } from '../domain/records.ts';
import { assertValidClassification } from '../domain/taxonomy.ts';
import { guardJson, guardText, mergeRedactions, type Redaction } from '../safety/contentGuard.ts';
import { requireContent, requireId } from '../validation.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from './exportFormat.ts';
import { YieldEvery } from '../util/yieldEvery.ts';

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

const SOURCE_TYPES: readonly SourceType[] = ['conversation', 'explicit', 'inferred', 'observed', 'editor', 'extraction', 'working_memory'];

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
  const originalIds = parsed.memories.map((memory) => memory.memory_id);
  const derived = new Map(originalIds.map((id) => [id, derivedId('mem', user, id)]));
  const existing = new Set((await deps.store.getMemories(user, [...originalIds, ...derived.values()])).map((memory) => memory.memory_id));
  // Ids the user already has keep their id (their own re-import); the rest get the derived id.
  const idFor = (id: string) => (existing.has(id) ? id : (derived.get(id) ?? derivedId('mem', user, id)));
  const remapped: Record<string, string> = {};
  const redactions: Redaction[][] = [];
  let imported = 0;
  let skipped = 0;
  const slice = new YieldEvery(100);
  for (const memory of parsed.memories) {
    await slice.step();
    const id = idFor(memory.memory_id);
    if (existing.has(id)) {
      skipped++;
      continue;
    }
    if (id !== memory.memory_id) remapped[memory.memory_id] = id;
    const content = guardText(requireContent(memory.content), deps.config);
    const metadata = guardJson(memory.metadata, deps.config);
    redactions.push(content.redactions, metadata.redactions);
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
    await deps.store.insertMemory(record, null);
    existing.add(id);
    imported++;
  }

  let sessionsImported = 0;
  let sessionsSkipped = 0;
  let itemsImported = 0;
  for (const session of parsed.sessions) {
    const current = await deps.store.getSession(session.session_id);
    const sessionId = current && current.user_id !== user ? derivedId('sess', user, session.session_id) : session.session_id;
    if (sessionId !== session.session_id) remapped[session.session_id] = sessionId;
    const owned = current?.user_id === user ? current : await deps.store.getSession(sessionId);
    if (owned) {
      sessionsSkipped++;
      continue;
    }
    const items = parsed.working_items
      .filter((item) => item.session_id === session.session_id)
      .map((item): WorkingItemRecord => {
        const guarded = guardText(requireContent(item.content), deps.config);
        const metadata = guardJson(item.metadata, deps.config);
        redactions.push(guarded.redactions, metadata.redactions);
        return { ...item, session_id: sessionId, user_id: user, content: guarded.content, metadata: metadata.value, item_id: derivedId('wmi', user, `${sessionId}/${item.item_id}`) };
      });
    // A session's config is free-form JSON from the file: it passes the same gate as metadata.
    const config = guardJson(session.config, deps.config, 'config');
    redactions.push(config.redactions);
    const record: SessionRecord = { ...session, config: config.value, session_id: sessionId, user_id: user, total_tokens: items.reduce((total, item) => total + item.token_count, 0) };
    await deps.store.commitWorking({ session: record, upsert: items, delete: [] });
    sessionsImported++;
    itemsImported += items.length;
  }
  if (imported > 0) deps.events.emit({ type: 'memory', user_id: user, memory_ids: parsed.memories.map((memory) => idFor(memory.memory_id)), change: 'created' });
  return {
    memories_imported: imported,
    memories_skipped: skipped,
    sessions_imported: sessionsImported,
    sessions_skipped: sessionsSkipped,
    working_items_imported: itemsImported,
    remapped_ids: remapped,
    redactions: mergeRedactions(...redactions),
  };
}

function derivedId(prefix: 'mem' | 'sess' | 'wmi', userId: string, original: string): string {
  return `${prefix}_${createHash('sha256').update(`${userId}\u0000${original}`).digest('hex').slice(0, 32)}`;
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
  if (data.format_version !== EXPORT_FORMAT_VERSION) throw invalid(`format_version ${String(data.format_version)} is not supported (this server reads ${EXPORT_FORMAT_VERSION}).`, 'format_version');
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
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) throw invalid(`${at}.${field} must be a list of strings.`, `${at}.${field}`);
    return value as string[];
  };
  const unit = (value: unknown, field: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw invalid(`${at}.${field} must be a number from 0 to 1.`, `${at}.${field}`);
    return value;
  };
  const time = (value: unknown, field: string, nullable: boolean): string | null => {
    if ((value === null || value === undefined) && nullable) return null;
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw invalid(`${at}.${field} must be an ISO-8601 time.`, `${at}.${field}`);
    return new Date(value).toISOString();
  };
  const optionalId = (value: unknown, field: string): string | null => (value === null || value === undefined ? null : requireId(value, `${at}.${field}`));
  const created = time(raw.created_at, 'created_at', false) as string;
  const sourceType = raw.source_type === undefined ? 'explicit' : raw.source_type;
  if (!SOURCE_TYPES.includes(sourceType as SourceType)) throw invalid(`${at}.source_type must be one of ${SOURCE_TYPES.join(', ')}.`, `${at}.source_type`);
  if (raw.metadata !== undefined && !isObject(raw.metadata)) throw invalid(`${at}.metadata must be an object.`, `${at}.metadata`);
  // An export holds one user's partition: the personal layers. Files from before layers are user layer.
  const layer = raw.layer === undefined ? 'user' : raw.layer;
  if (layer !== 'user' && layer !== 'agent' && layer !== 'session') throw invalid(`${at}.layer must be user, agent or session; shared layers are not part of a user's export.`, `${at}.layer`);
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
  };
}

function sessionOf(raw: unknown, at: string): SessionRecord {
  if (!isObject(raw)) throw invalid(`${at} must be an object.`, at);
  requireId(raw.session_id, `${at}.session_id`);
  for (const field of ['max_tokens', 'next_sequence', 'total_tokens'] as const) {
    if (typeof raw[field] !== 'number') throw invalid(`${at}.${field} must be a number.`, `${at}.${field}`);
  }
  if (!['lru', 'relevance', 'hybrid'].includes(raw.eviction_policy as string)) throw invalid(`${at}.eviction_policy must be lru, relevance or hybrid.`, `${at}.eviction_policy`);
  return { ...(raw as unknown as SessionRecord), config: isObject(raw.config) ? raw.config : {} };
}

function itemOf(raw: unknown, at: string): WorkingItemRecord {
  if (!isObject(raw)) throw invalid(`${at} must be an object.`, at);
  requireId(raw.item_id, `${at}.item_id`);
  requireId(raw.session_id, `${at}.session_id`);
  if (typeof raw.content !== 'string' || typeof raw.token_count !== 'number' || typeof raw.sequence_num !== 'number') {
    throw invalid(`${at} needs content, token_count and sequence_num.`, at);
  }
  return { ...(raw as unknown as WorkingItemRecord), metadata: isObject(raw.metadata) ? raw.metadata : {} };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
