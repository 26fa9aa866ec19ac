import { CONVERSATION_SUBTYPES, type TurnFacts } from '../../core/domain/dialogTurn.ts';
import { ANCHORS_FIELD, carriesAnchors, declaredProject } from '../../core/domain/rankingFacts.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';

/**
 * The fields filters and listing sorts read, kept in memory per user so a search can test every
 * candidate without a round trip. The cache holds them as columns by row (metaColumns.ts), not
 * as one object per memory: a MemoryMeta there is a MetaRow view read from the columns, or a
 * plain object on its way in (a write, a bulk load) or kept as it was (a save's frozen copy).
 */
export interface MemoryMeta {
  memory_id: string;
  layer: string;
  scope_id: string;
  project_id: string | null;
  category: string;
  subtype: string;
  entities: readonly string[];
  tags: readonly string[];
  /** COALESCE(event_time, created_at) in epoch ms: the instant after/before filters compare. */
  time_ms: number;
  confidence: number;
  pinned: boolean;
  source_type: string;
  /** Session that stored the memory; neighbour windows stop where it changes. */
  source_session: string | null;
  /** The conversation the memory is a turn of (dialogTurn.ts), null for every other memory. */
  conversation: string | null;
  /** A turn that asks something; with `conversation`, what neighbour expansion reads instead of the row. */
  question: boolean;
  deleted: boolean;
  superseded: boolean;
  importance: number;
  decay_factor: number;
  access_count: number;
  last_accessed_ms: number;
  created_ms: number;
  /** `metadata.project` as ranking reads it (rankingFacts.ts, declaredProject). */
  declared_project: string | null;
  /** The metadata carries anchors (rankingFacts.ts, carriesAnchors). */
  anchored: boolean;
}

/** The columns a MemoryMeta is built from; loading a user reads only these. */
export const META_FIELDS = [
  'memory_id',
  'layer',
  'scope_id',
  'project_id',
  'memory_category',
  'memory_subtype',
  'entities',
  'tags',
  'event_time',
  'confidence',
  'pinned',
  'source_type',
  'source_session',
  'deleted_at',
  'superseded_by',
  'importance',
  'decay_factor',
  'access_count',
  'last_accessed',
  'created_at',
] as const;

/**
 * Beside META_FIELDS, what a load reads of the metadata and the content, without either leaving
 * SQLite: the metadata and a question mark test of dialog-turn rows only (the turn facts, so no
 * other row's metadata is parsed), and of every row its declared project and whether it carries
 * anchors (the ranking facts; malformed metadata has neither).
 */
const TURN_SUBTYPES_SQL = [...CONVERSATION_SUBTYPES].map((subtype) => `'${subtype.replaceAll("'", "''")}'`).join(', ');
const ANCHORS_PATH = `'$.${ANCHORS_FIELD}'`;
export const METADATA_FACTS_SQL =
  `CASE WHEN memory_subtype IN (${TURN_SUBTYPES_SQL}) THEN metadata END AS turn_metadata, ` +
  `CASE WHEN memory_subtype IN (${TURN_SUBTYPES_SQL}) THEN instr(content, '?') > 0 ELSE 0 END AS turn_asks, ` +
  `CASE WHEN json_valid(metadata) THEN CASE WHEN json_type(metadata, '$.project') = 'text' ` +
  `THEN json_extract(metadata, '$.project') END END AS declared_project, ` +
  `CASE WHEN json_valid(metadata) THEN CASE WHEN json_type(metadata, ${ANCHORS_PATH}) = 'array' ` +
  `THEN json_array_length(metadata, ${ANCHORS_PATH}) > 0 ELSE 0 END ELSE 0 END AS anchored`;

/** The facts a meta keeps of a row's metadata and content (METADATA_FACTS_SQL on a load, the record on a write). */
export interface MetadataFacts extends TurnFacts {
  declared_project: string | null;
  anchored: boolean;
}

/** A row as a load reads it: the META_FIELDS and the facts of its metadata and content. */
export type MetaSource = Pick<MemoryRecord, (typeof META_FIELDS)[number]> & { derived: MetadataFacts };

/** A full record's MetadataFacts, as a write refreshes its meta. */
export function metadataFactsOf(memory: MemoryRecord, turn: TurnFacts): MetadataFacts {
  return { ...turn, declared_project: declaredProject(memory.metadata), anchored: carriesAnchors(memory.metadata) };
}

export function metaOf(memory: Pick<MemoryRecord, (typeof META_FIELDS)[number]>, derived: MetadataFacts): MemoryMeta {
  const created_ms = Date.parse(memory.created_at);
  return {
    memory_id: memory.memory_id,
    layer: memory.layer,
    scope_id: memory.scope_id,
    project_id: memory.project_id,
    category: memory.memory_category,
    subtype: memory.memory_subtype,
    entities: memory.entities,
    tags: memory.tags,
    time_ms: memory.event_time === null ? created_ms : Date.parse(memory.event_time),
    confidence: memory.confidence,
    pinned: memory.pinned,
    source_type: memory.source_type,
    source_session: memory.source_session,
    conversation: derived.conversation,
    question: derived.question,
    deleted: memory.deleted_at !== null,
    superseded: memory.superseded_by !== null,
    importance: memory.importance,
    decay_factor: memory.decay_factor,
    access_count: memory.access_count,
    last_accessed_ms: Date.parse(memory.last_accessed),
    created_ms,
    declared_project: derived.declared_project,
    anchored: derived.anchored,
  };
}
