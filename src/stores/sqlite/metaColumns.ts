import { type PackedStrings, StringColumn, type StringList } from '../common/stringList.ts';
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
/** Not a persisted flag: the row's memory was forgotten (erased) from the table. */
export const ABSENT = 128;

const S = STRING_FIELDS.length;
const N = NUMBER_FIELDS.length;
const NO_ITEMS: readonly string[] = Object.freeze([]);
/** Column numbers of the string fields (STRING_FIELDS order; 0 is the id), then of the number fields. */
export const LAYER = 1;
export const SCOPE = 2;
export const PROJECT = 3;
export const CATEGORY = 4;
export const SUBTYPE = 5;
export const SOURCE_TYPE = 6;
export const SOURCE_SESSION = 7;
export const CONVERSATION = 8;
export const DECLARED_PROJECT = 9;
export const TIME = 0;
export const CONFIDENCE = 1;
export const IMPORTANCE = 2;
export const ACCESS_COUNT = 3;
export const LAST_ACCESSED = 4;
export const CREATED = 5;
export const DECAY = 6;

/** A persisted index's meta columns as decoded (indexSnapshotFormat.ts), every number checked against its tables. */
export interface LoadedMetaColumns {
  readonly ids: StringList;
  readonly strings: Int32Array;
  readonly numbers: Float64Array;
  readonly flags: Uint8Array;
  /** Per row, where its entities start in `listItems`; `listCounts` holds entities then tags per row. */
  readonly listStarts: Int32Array;
  readonly listCounts: Int32Array;
  readonly listItems: Int32Array;
  /** The file's strings, read in place. */
  readonly stringTable: PackedStrings;
}

/**
 * Every meta of one user as columns: typed arrays by row, strings as numbers in a pool, no object
 * per memory. Rows are in store order (a persisted index's rows, then memories as they come); a
 * row keeps its memory for the table's life, so a row number is as good as the id to anyone
 * holding it (the vector index's slots). Loaded rows read their entity and tag lists from the
 * file's list columns until written; written and new rows keep their lists as given.
 */
export class MetaColumns {
  /**
   * Memory ids by row: a loaded table's over the file's ids, read in place, which the sorted key
   * indexes search and so never change; new rows are appended beside them.
   */
  readonly #ids: StringColumn;
  #strings: Int32Array;
  #numbers: Float64Array;
  #flags: Uint8Array;
  #rows: number;
  readonly #loaded: LoadedMetaColumns | null;
  /** The file's strings are numbers below `#baseStrings`; strings met later are numbered after them. */
  readonly #baseStrings: StringList;
  /**
   * The file's strings the rows' fields and lists were read as, made once each: filters read a
   * candidate's layer, scope or project at every recall, and the same few strings serve most rows.
   */
  readonly #baseMade = new Map<number, string>();
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
    this.#ids = new StringColumn(loaded === null ? [] : loaded.ids);
    this.#strings = loaded === null ? new Int32Array(16 * S) : loaded.strings;
    this.#numbers = loaded === null ? new Float64Array(16 * N) : loaded.numbers;
    this.#flags = loaded === null ? new Uint8Array(16) : loaded.flags;
    this.#baseStrings = loaded === null ? [] : loaded.stringTable;
  }

  get rows(): number {
    return this.#rows;
  }

  get ids(): StringList {
    return this.#ids;
  }

  /** A new row at the end holding `meta`; its number. */
  append(meta: MemoryMeta): number {
    const row = this.#rows;
    if (row === this.#flags.length) this.#grow();
    this.#rows++;
    this.#ids.push(meta.memory_id);
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
      ? this.#baseString(number)
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

  /** Whether row `row` carries `tag`, read without making its tag list. */
  hasTag(row: number, tag: string): boolean {
    const written = this.#tags[row];
    if (written !== undefined) return written.includes(tag);
    const loaded = this.#loaded!;
    const from = loaded.listStarts[row] + loaded.listCounts[row * 2];
    const to = from + loaded.listCounts[row * 2 + 1];
    for (let at = from; at < to; at++) if (this.#baseString(loaded.listItems[at]) === tag) return true;
    return false;
  }

  #loadedList(row: number, which: 0 | 1): readonly string[] {
    const loaded = this.#loaded!;
    const count = loaded.listCounts[row * 2 + which];
    // Most memories have no tags and many no entities: one shared empty list, not one per call.
    if (count === 0) return NO_ITEMS;
    const from = loaded.listStarts[row] + (which === 1 ? loaded.listCounts[row * 2] : 0);
    const out = new Array<string>(count);
    for (let index = 0; index < count; index++) out[index] = this.#baseString(loaded.listItems[from + index]);
    return out;
  }

  #baseString(number: number): string {
    let made = this.#baseMade.get(number);
    if (made === undefined) {
      made = this.#baseStrings.at(number)!;
      this.#baseMade.set(number, made);
    }
    return made;
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
