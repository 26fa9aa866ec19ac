import type { MemoryMeta } from './memoryMeta.ts';

/** Per row, the string fields, each as a number in the string pool (-1 for null): the persisted index's layout too. */
export const STRING_FIELDS = [
  'memory_id',
  'layer',
  'scope_id',
  'project_id',
  'category',
  'subtype',
  'source_type',
  'source_session',
  'conversation',
  'declared_project',
] as const;
export const NUMBER_FIELDS = [
  'time_ms',
  'confidence',
  'importance',
  'access_count',
  'last_accessed_ms',
  'created_ms',
  'decay_factor',
] as const;
export const PINNED = 1;
export const DELETED = 2;
export const SUPERSEDED = 4;
export const QUESTION = 8;
export const ANCHORED = 16;
/** Field numbers of the two columns neighbour walks read directly. */
export const TIME_FIELD = 0;
export const SOURCE_SESSION_FIELD = 7;
/** Not a persisted flag: the row's memory was forgotten (erased) from the table. */
export const ABSENT = 128;

const S = STRING_FIELDS.length;
const N = NUMBER_FIELDS.length;
const NO_ITEMS: readonly string[] = Object.freeze([]);
const LAYER = 1;
const SCOPE = 2;
const PROJECT = 3;
const CATEGORY = 4;
const SUBTYPE = 5;
const SOURCE_TYPE = 6;
const SOURCE_SESSION = 7;
const CONVERSATION = 8;
export const CONVERSATION_FIELD = CONVERSATION;
const DECLARED_PROJECT = 9;
const TIME = 0;
const CONFIDENCE = 1;
const IMPORTANCE = 2;
const ACCESS_COUNT = 3;
const LAST_ACCESSED = 4;
const CREATED = 5;
const DECAY = 6;

/** A persisted index's meta columns as decoded (indexSnapshotFormat.ts), every number checked against its tables. */
export interface LoadedMetaColumns {
  readonly ids: string[];
  readonly strings: Int32Array;
  readonly numbers: Float64Array;
  readonly flags: Uint8Array;
  /** Per row, where its entities start in `listItems`; `listCounts` holds entities then tags per row. */
  readonly listStarts: Int32Array;
  readonly listCounts: Int32Array;
  readonly listItems: Int32Array;
  readonly stringTable: readonly string[];
}

/**
 * Every meta of one user as columns: typed arrays by row, strings as numbers in a pool, no object
 * per memory. Rows are in store order (a persisted index's rows, then memories as they come); a
 * row keeps its memory for the table's life, so a row number is as good as the id to anyone
 * holding it (the vector index's slots). Loaded rows read their entity and tag lists from the
 * file's list columns until written; written and new rows keep their lists as given.
 */
export class MetaColumns {
  ids: string[];
  #strings: Int32Array;
  #numbers: Float64Array;
  #flags: Uint8Array;
  #rows: number;
  readonly #loaded: LoadedMetaColumns | null;
  /** The file's strings are numbers below `#baseStrings`; strings met later are numbered after them. */
  readonly #baseStrings: readonly string[];
  readonly #laterStrings: string[] = [];
  readonly #laterNumbers = new Map<string, number>();
  /** Per string field, the last string written and its number: consecutive rows repeat most of them. */
  readonly #lastStrings: Array<string | null> = new Array<string | null>(S).fill(null);
  readonly #lastNumbers = new Int32Array(S).fill(-1);
  /** Lists of rows written since the load (undefined: still the file's). */
  #entities: Array<readonly string[] | undefined> = [];
  #tags: Array<readonly string[] | undefined> = [];

  constructor(loaded: LoadedMetaColumns | null = null) {
    this.#loaded = loaded;
    this.#rows = loaded === null ? 0 : loaded.ids.length;
    this.ids = loaded === null ? [] : loaded.ids.slice();
    this.#strings = loaded === null ? new Int32Array(16 * S) : loaded.strings;
    this.#numbers = loaded === null ? new Float64Array(16 * N) : loaded.numbers;
    this.#flags = loaded === null ? new Uint8Array(16) : loaded.flags;
    this.#baseStrings = loaded === null ? [] : loaded.stringTable;
  }

  get rows(): number {
    return this.#rows;
  }

  /** A new row at the end holding `meta`; its number. */
  append(meta: MemoryMeta): number {
    const row = this.#rows;
    if (row === this.#flags.length) this.#grow();
    this.#rows++;
    this.ids.push(meta.memory_id);
    // The id is read from `ids`: numbering it would keep a second entry per memory in the pool's Map.
    this.#strings[row * S] = -1;
    this.write(row, meta);
    return row;
  }

  /** Sets every field of `row` (its id stays) and marks it present. */
  write(row: number, meta: MemoryMeta): void {
    const s = row * S;
    const n = row * N;
    const strings = this.#strings;
    strings[s + LAYER] = this.#number(meta.layer, LAYER);
    strings[s + SCOPE] = this.#number(meta.scope_id, SCOPE);
    strings[s + PROJECT] = this.#number(meta.project_id, PROJECT);
    strings[s + CATEGORY] = this.#number(meta.category, CATEGORY);
    strings[s + SUBTYPE] = this.#number(meta.subtype, SUBTYPE);
    strings[s + SOURCE_TYPE] = this.#number(meta.source_type, SOURCE_TYPE);
    strings[s + SOURCE_SESSION] = this.#number(meta.source_session, SOURCE_SESSION);
    strings[s + CONVERSATION] = this.#number(meta.conversation, CONVERSATION);
    strings[s + DECLARED_PROJECT] = this.#number(meta.declared_project, DECLARED_PROJECT);
    const numbers = this.#numbers;
    numbers[n + TIME] = meta.time_ms;
    numbers[n + CONFIDENCE] = meta.confidence;
    numbers[n + IMPORTANCE] = meta.importance;
    numbers[n + ACCESS_COUNT] = meta.access_count;
    numbers[n + LAST_ACCESSED] = meta.last_accessed_ms;
    numbers[n + CREATED] = meta.created_ms;
    numbers[n + DECAY] = meta.decay_factor;
    this.#flags[row] =
      (meta.pinned ? PINNED : 0) |
      (meta.deleted ? DELETED : 0) |
      (meta.superseded ? SUPERSEDED : 0) |
      (meta.question ? QUESTION : 0) |
      (meta.anchored ? ANCHORED : 0);
    this.#entities[row] = meta.entities.length === 0 ? NO_ITEMS : meta.entities;
    this.#tags[row] = meta.tags.length === 0 ? NO_ITEMS : meta.tags;
  }

  writeAccess(row: number, accessCount: number, lastAccessedMs: number): void {
    this.#numbers[row * N + ACCESS_COUNT] = accessCount;
    this.#numbers[row * N + LAST_ACCESSED] = lastAccessedMs;
  }

  present(row: number): boolean {
    return row < this.#rows && (this.#flags[row] & ABSENT) === 0;
  }

  markAbsent(row: number): void {
    this.#flags[row] |= ABSENT;
    this.#entities[row] = NO_ITEMS;
    this.#tags[row] = NO_ITEMS;
  }

  flag(row: number, bit: number): boolean {
    return (this.#flags[row] & bit) !== 0;
  }

  string(row: number, field: number): string | null {
    const number = this.#strings[row * S + field];
    if (number === -1) return null;
    return number < this.#baseStrings.length
      ? this.#baseStrings[number]
      : this.#laterStrings[number - this.#baseStrings.length];
  }

  number(row: number, field: number): number {
    return this.#numbers[row * N + field];
  }

  entities(row: number): readonly string[] {
    return this.#entities[row] ?? this.#loadedList(row, 0);
  }

  tags(row: number): readonly string[] {
    return this.#tags[row] ?? this.#loadedList(row, 1);
  }

  #loadedList(row: number, which: 0 | 1): readonly string[] {
    const loaded = this.#loaded!;
    const count = loaded.listCounts[row * 2 + which];
    // Most memories have no tags and many no entities: one shared empty list, not one per call.
    if (count === 0) return NO_ITEMS;
    const from = loaded.listStarts[row] + (which === 1 ? loaded.listCounts[row * 2] : 0);
    const out = new Array<string>(count);
    for (let index = 0; index < count; index++) out[index] = loaded.stringTable[loaded.listItems[from + index]];
    return out;
  }

  /** A string's number: the file's strings are not looked up (that would need a Map of them all), so one met again later gets a second number, which reads the same. */
  #number(value: string | null, field: number): number {
    if (value === null) return -1;
    if (value === this.#lastStrings[field]) return this.#lastNumbers[field];
    let number = this.#laterNumbers.get(value);
    if (number === undefined) {
      number = this.#baseStrings.length + this.#laterStrings.length;
      this.#laterStrings.push(value);
      this.#laterNumbers.set(value, number);
    }
    this.#lastStrings[field] = value;
    this.#lastNumbers[field] = number;
    return number;
  }

  #grow(): void {
    const capacity = Math.max(16, Math.ceil(this.#flags.length * 1.5));
    const strings = new Int32Array(capacity * S);
    strings.set(this.#strings.subarray(0, this.#rows * S));
    const numbers = new Float64Array(capacity * N);
    numbers.set(this.#numbers.subarray(0, this.#rows * N));
    const flags = new Uint8Array(capacity);
    flags.set(this.#flags.subarray(0, this.#rows));
    this.#strings = strings;
    this.#numbers = numbers;
    this.#flags = flags;
  }
}

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
    return this.#columns.ids[this.row];
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
