import { MemoryError } from '../domain/errors.ts';
import { EVICTION_POLICIES, SOURCE_TYPES, WORKING_CONTENT_TYPES } from '../domain/recordChoices.ts';
import type { MemoryRecord, SessionRecord, WorkingItemRecord } from '../domain/records.ts';
import { validClassification } from '../domain/taxonomy.ts';
import { LIMITS, requireContent, requireId, requireJsonDepth, requireMetadata } from '../validation.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from './exportFormat.ts';
import { isCalendarTimestamp } from '../util/time.ts';

/**
 * The export file's reader: the inverse of exportMemories, checked field by field so a
 * hand-edited or foreign file fails with the field named (INVALID_INPUT, details.field). Memories
 * come out as the core's one record (core/domain/memoryRecord.ts); the value lists its schema is
 * built from (recordChoices.ts, taxonomy.ts) decide which layers, categories, subtypes and sources a
 * file may hold, and sessions' eviction policies and working items' kinds. They are read without
 * zod, so a memory process loads zod only when a tool schema needs it.
 */

/** Whether `value` is one of `options`: narrows a file's value to the schema's enum without a cast. */
function isOneOf<T extends string>(options: readonly T[], value: unknown): value is T {
  return options.some((option) => option === value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

export interface ParsedExport {
  memories: MemoryRecord[];
  sessions: SessionRecord[];
  working_items: WorkingItemRecord[];
}

export function invalid(message: string, field: string): MemoryError {
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
  const memoryId = requireId(raw.memory_id, `${at}.memory_id`);
  const content = raw.content;
  if (typeof content !== 'string') throw invalid(`${at}.content must be a string.`, `${at}.content`);
  const { category, subtype } = validClassification(String(raw.memory_category), String(raw.memory_subtype));
  const strings = (value: unknown, field: string): string[] => {
    if (value === undefined) return [];
    if (!isStringList(value)) throw invalid(`${at}.${field} must be a list of strings.`, `${at}.${field}`);
    return value;
  };
  const unit = (value: unknown, field: string, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !(value >= 0 && value <= 1))
      throw invalid(`${at}.${field} must be a number from 0 to 1.`, `${at}.${field}`);
    return value;
  };
  const requiredTime = (value: unknown, field: string): string => {
    if (typeof value !== 'string' || !isCalendarTimestamp(value))
      throw invalid(`${at}.${field} must be an ISO-8601 time on a real calendar date.`, `${at}.${field}`);
    return new Date(value).toISOString();
  };
  const time = (value: unknown, field: string): string | null =>
    value === null || value === undefined ? null : requiredTime(value, field);
  const optionalId = (value: unknown, field: string): string | null =>
    value === null || value === undefined ? null : requireId(value, `${at}.${field}`);
  const created = requiredTime(raw.created_at, 'created_at');
  const sourceType = raw.source_type === undefined ? 'explicit' : raw.source_type;
  if (!isOneOf(SOURCE_TYPES, sourceType))
    throw invalid(`${at}.source_type must be one of ${SOURCE_TYPES.join(', ')}.`, `${at}.source_type`);
  const metadata = raw.metadata === undefined ? {} : raw.metadata;
  if (!isObject(metadata)) throw invalid(`${at}.metadata must be an object.`, `${at}.metadata`);
  // Kept as exported (the product's own fields may have grown it past the store's size limit), but
  // never nested deeper than any other JSON the core accepts.
  requireJsonDepth(metadata, `${at}.metadata`);
  // An export holds one user's partition: the personal layers. Files from before layers are user layer.
  const layer = raw.layer === undefined ? 'user' : raw.layer;
  if (layer !== 'user' && layer !== 'agent' && layer !== 'session')
    throw invalid(
      `${at}.layer must be user, agent or session; shared layers are not part of a user's export.`,
      `${at}.layer`,
    );
  const scopeId = layer === 'user' ? '' : requireId(raw.scope_id, `${at}.scope_id`);
  return {
    memory_id: memoryId,
    user_id: '',
    layer,
    scope_id: scopeId,
    org_id: optionalId(raw.org_id, 'org_id'),
    project_id: optionalId(raw.project_id, 'project_id'),
    memory_category: category,
    memory_subtype: subtype,
    content,
    summary: typeof raw.summary === 'string' ? raw.summary : null,
    entities: strings(raw.entities, 'entities'),
    tags: strings(raw.tags, 'tags'),
    metadata,
    event_time: time(raw.event_time, 'event_time'),
    is_temporal: raw.is_temporal === true,
    importance: unit(raw.importance, 'importance', 0.5),
    access_count: typeof raw.access_count === 'number' && raw.access_count >= 0 ? Math.floor(raw.access_count) : 0,
    decay_factor: unit(raw.decay_factor, 'decay_factor', 1),
    related_memories: strings(raw.related_memories, 'related_memories'),
    supersedes: optionalId(raw.supersedes, 'supersedes'),
    superseded_by: optionalId(raw.superseded_by, 'superseded_by'),
    source_session: optionalId(raw.source_session, 'source_session'),
    source_type: sourceType,
    confidence: unit(raw.confidence, 'confidence', 1),
    pinned: raw.pinned === true,
    embedding_model: null,
    created_at: created,
    last_accessed: time(raw.last_accessed, 'last_accessed') ?? created,
    updated_at: time(raw.updated_at, 'updated_at') ?? created,
    deleted_at: time(raw.deleted_at, 'deleted_at'),
    // An imported memory starts its own history here.
    version: 1,
  };
}

function sessionOf(raw: unknown, at: string): SessionRecord {
  if (!isObject(raw)) throw invalid(`${at} must be an object.`, at);
  const sessionId = requireId(raw.session_id, `${at}.session_id`);
  const evictionPolicy = raw.eviction_policy;
  if (!isOneOf(EVICTION_POLICIES, evictionPolicy))
    throw invalid(`${at}.eviction_policy must be lru, relevance or hybrid.`, `${at}.eviction_policy`);
  const created = requiredIsoTime(raw.created_at, `${at}.created_at`);
  return {
    session_id: sessionId,
    user_id: '',
    org_id: optionalIdOf(raw.org_id, `${at}.org_id`),
    project_id: optionalIdOf(raw.project_id, `${at}.project_id`),
    // The same bounds init_session puts on a budget.
    max_tokens: wholeNumber(raw.max_tokens, `${at}.max_tokens`, 1, LIMITS.maxTokens),
    // Recomputed from the items on import; checked only so a broken file is named.
    total_tokens: wholeNumber(raw.total_tokens ?? 0, `${at}.total_tokens`, 0, LIMITS.maxTokens),
    eviction_policy: evictionPolicy,
    next_sequence: wholeNumber(raw.next_sequence, `${at}.next_sequence`, 1, Number.MAX_SAFE_INTEGER),
    created_at: created,
    last_activity: isoTime(raw.last_activity, `${at}.last_activity`) ?? created,
    expires_at: isoTime(raw.expires_at, `${at}.expires_at`),
    config: raw.config === undefined ? {} : requireMetadataAt(raw.config, `${at}.config`),
  };
}

function itemOf(raw: unknown, at: string): WorkingItemRecord {
  if (!isObject(raw)) throw invalid(`${at} must be an object.`, at);
  const itemId = requireId(raw.item_id, `${at}.item_id`);
  const sessionId = requireId(raw.session_id, `${at}.session_id`);
  if (typeof raw.content !== 'string') throw invalid(`${at}.content must be a string.`, `${at}.content`);
  const contentType = raw.content_type;
  if (!isOneOf(WORKING_CONTENT_TYPES, contentType)) {
    throw invalid(`${at}.content_type must be one of ${WORKING_CONTENT_TYPES.join(', ')}.`, `${at}.content_type`);
  }
  if (raw.pinned !== undefined && typeof raw.pinned !== 'boolean')
    throw invalid(`${at}.pinned must be true or false.`, `${at}.pinned`);
  const relevance = raw.relevance_score ?? 1;
  if (typeof relevance !== 'number' || !(relevance >= 0 && relevance <= 1))
    throw invalid(`${at}.relevance_score must be a number from 0 to 1.`, `${at}.relevance_score`);
  const created = requiredIsoTime(raw.created_at, `${at}.created_at`);
  return {
    item_id: itemId,
    session_id: sessionId,
    user_id: '',
    content_type: contentType,
    content: requireContent(raw.content, `${at}.content`),
    // Recounted on import; the file's count is checked only for its type.
    token_count: wholeNumber(raw.token_count ?? 0, `${at}.token_count`, 0, LIMITS.maxTokens),
    relevance_score: relevance,
    pinned: raw.pinned === true,
    sequence_num: wholeNumber(raw.sequence_num, `${at}.sequence_num`, 0, Number.MAX_SAFE_INTEGER),
    created_at: created,
    last_accessed: isoTime(raw.last_accessed, `${at}.last_accessed`) ?? created,
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

function requiredIsoTime(value: unknown, field: string): string {
  if (typeof value !== 'string' || !ISO_TIME.test(value) || !isCalendarTimestamp(value))
    throw invalid(`${field} must be an ISO-8601 time on a real calendar date.`, field);
  return new Date(value).toISOString();
}

function isoTime(value: unknown, field: string): string | null {
  return value === null || value === undefined ? null : requiredIsoTime(value, field);
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
