import type { MemoryMeta } from './memoryMeta.ts';
import {
  ACCESS_COUNT,
  ANCHORED,
  CATEGORY,
  CONFIDENCE,
  CONVERSATION,
  CREATED,
  DECAY,
  DECLARED_PROJECT,
  DELETED,
  IMPORTANCE,
  LAST_ACCESSED,
  LAYER,
  type MetaColumns,
  PINNED,
  PROJECT,
  QUESTION,
  SCOPE,
  SOURCE_SESSION,
  SOURCE_TYPE,
  SUBTYPE,
  SUPERSEDED,
  TIME,
} from './metaColumns.ts';

/**
 * One row of a MetaColumns read as a MemoryMeta: two fields, every property read from the columns
 * when asked, so it always answers as the row is now. Made for a caller that asks and dropped
 * after; nothing keeps one per memory.
 */
export class MetaRow implements MemoryMeta {
  readonly #columns: MetaColumns;
  row: number;

  constructor(columns: MetaColumns, row: number) {
    this.#columns = columns;
    this.row = row;
  }

  get memory_id(): string {
    return this.#columns.ids.at(this.row)!;
  }
  get layer(): string {
    return this.#columns.string(this.row, LAYER)!;
  }
  get scope_id(): string {
    return this.#columns.string(this.row, SCOPE)!;
  }
  get project_id(): string | null {
    return this.#columns.string(this.row, PROJECT);
  }
  get category(): string {
    return this.#columns.string(this.row, CATEGORY)!;
  }
  get subtype(): string {
    return this.#columns.string(this.row, SUBTYPE)!;
  }
  get entities(): readonly string[] {
    return this.#columns.entities(this.row);
  }
  get tags(): readonly string[] {
    return this.#columns.tags(this.row);
  }
  get time_ms(): number {
    return this.#columns.number(this.row, TIME);
  }
  get confidence(): number {
    return this.#columns.number(this.row, CONFIDENCE);
  }
  get pinned(): boolean {
    return this.#columns.flag(this.row, PINNED);
  }
  get source_type(): string {
    return this.#columns.string(this.row, SOURCE_TYPE)!;
  }
  get source_session(): string | null {
    return this.#columns.string(this.row, SOURCE_SESSION);
  }
  get conversation(): string | null {
    return this.#columns.string(this.row, CONVERSATION);
  }
  get question(): boolean {
    return this.#columns.flag(this.row, QUESTION);
  }
  get deleted(): boolean {
    return this.#columns.flag(this.row, DELETED);
  }
  get superseded(): boolean {
    return this.#columns.flag(this.row, SUPERSEDED);
  }
  get importance(): number {
    return this.#columns.number(this.row, IMPORTANCE);
  }
  get decay_factor(): number {
    return this.#columns.number(this.row, DECAY);
  }
  get access_count(): number {
    return this.#columns.number(this.row, ACCESS_COUNT);
  }
  get last_accessed_ms(): number {
    return this.#columns.number(this.row, LAST_ACCESSED);
  }
  get created_ms(): number {
    return this.#columns.number(this.row, CREATED);
  }
  get declared_project(): string | null {
    return this.#columns.string(this.row, DECLARED_PROJECT);
  }
  get anchored(): boolean {
    return this.#columns.flag(this.row, ANCHORED);
  }
}

/** A plain copy of a meta as it is now (a row view's fields read once). */
export function plainMeta(meta: MemoryMeta): MemoryMeta {
  return {
    memory_id: meta.memory_id,
    layer: meta.layer,
    scope_id: meta.scope_id,
    project_id: meta.project_id,
    category: meta.category,
    subtype: meta.subtype,
    entities: meta.entities,
    tags: meta.tags,
    time_ms: meta.time_ms,
    confidence: meta.confidence,
    pinned: meta.pinned,
    source_type: meta.source_type,
    source_session: meta.source_session,
    conversation: meta.conversation,
    question: meta.question,
    deleted: meta.deleted,
    superseded: meta.superseded,
    importance: meta.importance,
    decay_factor: meta.decay_factor,
    access_count: meta.access_count,
    last_accessed_ms: meta.last_accessed_ms,
    created_ms: meta.created_ms,
    declared_project: meta.declared_project,
    anchored: meta.anchored,
  };
}
