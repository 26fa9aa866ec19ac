import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import type { LexicalDocuments } from '../common/lexicalIndex.ts';
import { SortedKeyIndex } from '../common/sortedKeyIndex.ts';
import { NumberedStrings, PackedStrings, type StringList } from '../common/stringList.ts';
import { CELLS_PER_STEP, runNow, sortedOrderSteps, type Steps } from '../common/steps.ts';
import type { MemoryMeta } from './memoryMeta.ts';
import {
  ANCHORED,
  DELETED,
  type LoadedMetaColumns,
  NUMBER_FIELDS,
  PINNED,
  QUESTION,
  STRING_FIELDS,
  SUPERSEDED,
} from './metaColumns.ts';

/**
 * The bytes of a persisted index (one user's filter metadata and full-text index), so a fresh
 * process answers its first recall without rebuilding from every row.
 *
 * Layout: 8 magic bytes, a little-endian u32 header length, the header as JSON, then sections
 * (typed arrays, each starting on an 8-byte boundary so it is read in place). The header names
 * where the data came from (store, user, change-log position, versions) and the CRC-32 of
 * everything after it: a file that fails any check is refused, never half-trusted.
 */
export const SNAPSHOT_MAGIC = Buffer.from('FMLIDX\u0000\u0001', 'latin1');
/**
 * 2: terms in string order and the sorting permutations of memory and document ids, so a loaded
 * index searches them instead of building Maps; metas are made from the columns when first used;
 * term frequencies as 16-bit half units (lexicalIndex.ts, tfUnits) instead of 32-bit floats.
 * 3: each meta's turn facts (dialogTurn.ts: conversation key, question flag), which neighbour
 * expansion reads instead of rows (MemoryStore.turnFacts).
 * 4: the full-text cells once, by term (postings, each run's documents increasing); version 3 held
 * them by document too, a third of the file, which a loaded index now makes only when it needs it.
 * 5: each meta's ranking facts beside those (rankingFacts.ts: decay factor, declared project,
 * whether it carries anchors), which recall scores candidates on instead of rows (MemoryStore.rankingFacts).
 * A file of another version is refused ('format-version') and the index rebuilt from the rows.
 */
export const SNAPSHOT_FORMAT_VERSION = 5;

/** Where a snapshot's content came from; a loader compares every field with the live store. */
export interface SnapshotStamp {
  storeId: string;
  userId: string;
  /** The change-log seq the content reflects: every change up to it, none after. */
  seq: number;
  schemaVersion: number;
  analyzerVersion: number;
  bm25: { k1: number; b: number };
}

/** One model's binary-quantised vector index: ids in slot order and their sign codes (BinaryVectorIndex.exportCodes). */
export interface VectorCodes {
  model: string;
  dims: number;
  ids: string[];
  codes: Uint32Array;
}

export interface IndexSnapshot {
  stamp: SnapshotStamp;
  /** Every row of the user (soft-deleted ones too), in store order. */
  metas: MemoryMeta[];
  lexical: LexicalDocuments;
  vectors: VectorCodes[];
}

/**
 * A decoded file's metas, still in its columns: every row was checked at decode. A MetaTable reads
 * and writes `columns` in place and never makes an object per row (at 100,000 memories, making them
 * all was a quarter of a fresh process's first recall and 34 MB); `meta(row)` makes one row's
 * MemoryMeta for a caller that wants a plain copy.
 */
export interface SnapshotMetas {
  /** Memory ids in store order (read in place). */
  readonly ids: StringList;
  /** Positions in `ids` in the ids' string order (checked: a valid SortedKeyIndex). */
  readonly idOrder: Int32Array;
  meta(row: number): MemoryMeta;
  /** A row's pinned flag and tags, read from the columns without making its meta. */
  pinned(row: number): boolean;
  tags(row: number): readonly string[];
  /** The columns themselves, which a MetaTable reads and writes in place. */
  readonly columns: LoadedMetaColumns;
}

export type DecodedSnapshot = Omit<IndexSnapshot, 'metas'> & { metas: SnapshotMetas };

export type SnapshotRejection = 'not-a-snapshot' | 'format-version' | 'byte-order' | 'corrupt';

/** A file that is not a usable snapshot; `reason` says which check it failed. */
export class SnapshotFormatError extends Error {
  readonly code = 'INDEX_SNAPSHOT_INVALID';
  readonly reason: SnapshotRejection;
  constructor(reason: SnapshotRejection, message: string) {
    super(message);
    this.name = 'SnapshotFormatError';
    this.reason = reason;
  }
}

interface Header {
  format: 'fml-index';
  formatVersion: number;
  byteOrder: 'LE';
  stamp: SnapshotStamp;
  counts: { metas: number; documents: number; terms: number; cells: number; strings: number; listItems: number };
  vectors: Array<{ model: string; dims: number; count: number; words: number }>;
  sections: SectionEntry[];
  crc32: number;
}

type SectionKind = 'i32' | 'u32' | 'f64' | 'f32' | 'u16' | 'u8' | 'utf16' | 'latin1';
interface SectionEntry {
  name: string;
  kind: SectionKind;
  offset: number;
  bytes: number;
}

const NO_ITEMS: readonly string[] = Object.freeze([]);
/** Every distinct string once; its number is its position. */
class StringTable {
  readonly strings: string[] = [];
  private readonly numbers = new Map<string, number>();
  number(value: string | null): number {
    if (value === null) return -1;
    let number = this.numbers.get(value);
    if (number === undefined) {
      number = this.strings.length;
      this.numbers.set(value, number);
      this.strings.push(value);
    }
    return number;
  }
}

export function encodeSnapshot(snapshot: IndexSnapshot): Buffer {
  const { metas } = snapshot;
  const parts = runNow(
    encodeSnapshotSteps({ ...snapshot, metas: { count: metas.length, at: (row: number) => metas[row] } }),
  );
  return Buffer.concat(parts);
}

/** Metas in store order, read one by one as the encoding reaches them; a row without a meta is skipped. */
export interface MetaRows {
  readonly count: number;
  at(row: number): MemoryMeta | undefined;
}

/** What a save encodes: metas read through `MetaRows` (a frozen view of a live state). */
export type SnapshotSource = Omit<IndexSnapshot, 'metas'> & { metas: MetaRows };

/**
 * The file's bytes as consecutive parts (the header, then each section and its padding, the
 * sections being the arrays themselves: nothing is copied into one buffer), in steps a caller can
 * run in time slices (steps.ts).
 */
export function* encodeSnapshotSteps(snapshot: SnapshotSource): Steps<Uint8Array[]> {
  const { metas: rows, lexical } = snapshot;
  const table = new StringTable();
  const stringColumns = new Int32Array(rows.count * STRING_FIELDS.length);
  const numberColumns = new Float64Array(rows.count * NUMBER_FIELDS.length);
  const flags = new Uint8Array(rows.count);
  const listCounts = new Int32Array(rows.count * 2);
  const listItems: number[] = [];
  const metaIds: string[] = [];
  let row = 0;
  for (let at = 0; at < rows.count; at++) {
    if (at % 1_024 === 1_023) yield;
    const meta = rows.at(at);
    if (meta === undefined) continue;
    metaIds.push(meta.memory_id);
    STRING_FIELDS.forEach(
      (field, column) => (stringColumns[row * STRING_FIELDS.length + column] = table.number(meta[field])),
    );
    NUMBER_FIELDS.forEach((field, column) => (numberColumns[row * NUMBER_FIELDS.length + column] = meta[field]));
    flags[row] =
      (meta.pinned ? PINNED : 0) |
      (meta.deleted ? DELETED : 0) |
      (meta.superseded ? SUPERSEDED : 0) |
      (meta.question ? QUESTION : 0) |
      (meta.anchored ? ANCHORED : 0);
    listCounts[row * 2] = meta.entities.length;
    listCounts[row * 2 + 1] = meta.tags.length;
    for (const entity of meta.entities) listItems.push(table.number(entity));
    for (const tag of meta.tags) listItems.push(table.number(tag));
    row++;
  }
  const metaCount = row;
  const documentIds = yield* numbered(table, lexical.ids);
  const vectorIds: Int32Array[] = [];
  for (const vectors of snapshot.vectors) vectorIds.push(yield* numbered(table, vectors.ids));
  const termNames = yield* numbered(table, lexical.termNames);
  const stringLengths = Int32Array.from(table.strings, (value) => value.length);
  yield;
  // UTF-16 keeps every JavaScript string exact, unpaired surrogates included, which UTF-8 would not;
  // when every character is below 256 (ids, most terms), one byte each, which decodes twice as fast.
  const characters = yield* characterBytes(table.strings);
  const metaIdOrder = yield* sortedOrderSteps(metaIds);

  const sections: Array<[string, SectionKind, ArrayBufferView]> = [
    ['stringLengths', 'i32', stringLengths],
    ['characters', characters.kind, characters.bytes],
    ['metaStrings', 'i32', stringColumns.subarray(0, metaCount * STRING_FIELDS.length)],
    ['metaNumbers', 'f64', numberColumns.subarray(0, metaCount * NUMBER_FIELDS.length)],
    ['metaFlags', 'u8', flags.subarray(0, metaCount)],
    ['metaListCounts', 'i32', listCounts.subarray(0, metaCount * 2)],
    ['metaListItems', 'i32', Int32Array.from(listItems)],
    ['metaIdOrder', 'i32', metaIdOrder],
    ['termNames', 'i32', termNames],
    ['documentIds', 'i32', documentIds],
    ['documentIdOrder', 'i32', lexical.idOrder],
    ['documentLengths', 'f64', lexical.lengths],
    ['postingSizes', 'i32', lexical.postingSizes],
    ['postingDocuments', 'i32', lexical.postingDocuments],
    ['postingTfs', 'u16', lexical.postingTfs],
    ...snapshot.vectors.flatMap((vectors, at): Array<[string, SectionKind, ArrayBufferView]> => [
      [`vector${at}Ids`, 'i32', vectorIds[at]!],
      [`vector${at}Codes`, 'u32', vectors.codes],
    ]),
  ];
  const entries: SectionEntry[] = [];
  const body: Uint8Array[] = [];
  let offset = 0;
  for (const [name, kind, view] of sections) {
    entries.push({ name, kind, offset, bytes: view.byteLength });
    body.push(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    const padding = align8(offset + view.byteLength) - (offset + view.byteLength);
    if (padding > 0) body.push(new Uint8Array(padding));
    offset += view.byteLength + padding;
  }
  let checksum = 0;
  for (const part of body)
    for (let at = 0; at < part.length; at += CRC_BYTES_PER_STEP) {
      checksum = crc32(part.subarray(at, at + CRC_BYTES_PER_STEP), checksum);
      yield;
    }
  const header: Header = {
    format: 'fml-index',
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    byteOrder: 'LE',
    stamp: snapshot.stamp,
    counts: {
      metas: metaCount,
      documents: lexical.ids.length,
      terms: lexical.termNames.length,
      cells: lexical.postingDocuments.length,
      strings: table.strings.length,
      listItems: listItems.length,
    },
    vectors: snapshot.vectors.map((vectors) => ({
      model: vectors.model,
      dims: vectors.dims,
      count: vectors.ids.length,
      words: vectors.codes.length,
    })),
    sections: entries,
    crc32: checksum,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(align8(SNAPSHOT_MAGIC.length + 4 + headerBytes.length));
  SNAPSHOT_MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(headerBytes.length, SNAPSHOT_MAGIC.length);
  headerBytes.copy(prefix, SNAPSHOT_MAGIC.length + 4);
  return [prefix, ...body];
}

/** A megabyte of CRC-32 per step (under a millisecond). */
const CRC_BYTES_PER_STEP = 1 << 20;

/** Each value's number in the string table, adding the ones it lacks. */
function* numbered(table: StringTable, values: StringList): Steps<Int32Array> {
  const numbers = new Int32Array(values.length);
  for (let at = 0; at < values.length; at++) {
    numbers[at] = table.number(values.at(at)!);
    if (at % CELLS_PER_STEP === CELLS_PER_STEP - 1) yield;
  }
  return numbers;
}

/** Any character of 256 or above. */
const WIDE_CHARACTER = /[^\u0000-\u00ff]/;

/**
 * The strings one after another, a run of strings per step: in Latin-1 when every character fits
 * one byte, else in UTF-16 (little-endian).
 */
function* characterBytes(strings: readonly string[]): Steps<{ kind: 'latin1' | 'utf16'; bytes: Buffer }> {
  let characters = 0;
  let wide = false;
  for (const value of strings) {
    characters += value.length;
    if (!wide && WIDE_CHARACTER.test(value)) wide = true;
  }
  const encoding = wide ? 'utf16le' : 'latin1';
  const bytes = Buffer.alloc(wide ? characters * 2 : characters);
  let offset = 0;
  for (let at = 0; at < strings.length; at++) {
    offset += bytes.write(strings[at], offset, encoding);
    if (at % CELLS_PER_STEP === CELLS_PER_STEP - 1) yield;
  }
  return { kind: wide ? 'utf16' : 'latin1', bytes };
}

/** Only the header, for checks that need not decode the content (the stamp, the counts). */
export function readSnapshotStamp(bytes: Buffer): SnapshotStamp {
  return parseHeader(bytes).header.stamp;
}

export function decodeSnapshot(bytes: Buffer): DecodedSnapshot {
  const { header, bodyStart } = parseHeader(bytes);
  const body = bytes.subarray(bodyStart);
  if (crc32(body) !== header.crc32)
    throw new SnapshotFormatError('corrupt', 'The index file fails its checksum: it was cut short or altered.');
  const section = sectionReader(body, header.sections);
  const { counts } = header;
  const lengths = section('stringLengths', 'i32', counts.strings) as Int32Array;
  const characterSection = charactersSection(header, body.length);
  const characters = body.toString(
    characterSection.kind === 'latin1' ? 'latin1' : 'utf16le',
    characterSection.offset,
    characterSection.offset + characterSection.bytes,
  );
  // Read in place: a string is made when asked for (stringList.ts), not 230,000 of them at 100,000 memories.
  const strings = PackedStrings.fromLengths(characters, lengths, characterCodes(body, characterSection));
  if (strings === null) throw new SnapshotFormatError('corrupt', 'The index file’s string table does not add up.');
  const string = (number: number): string => {
    const value = strings.at(number);
    if (value === undefined)
      throw new SnapshotFormatError('corrupt', `The index file refers to string ${number} of ${strings.length}.`);
    return value;
  };
  const metas = decodeMetas(section, counts, string, strings);
  const metaIdNumbers = {
    values: section('metaStrings', 'i32', counts.metas * STRING_FIELDS.length) as Int32Array,
    stride: STRING_FIELDS.length,
  };
  const termNumbers = section('termNames', 'i32', counts.terms) as Int32Array;
  const documentIds = section('documentIds', 'i32', counts.documents) as Int32Array;
  if (!numbersInRange(termNumbers, ZERO, strings.length) || !numbersInRange(documentIds, ZERO, strings.length))
    throw new SnapshotFormatError(
      'corrupt',
      'The index file’s term names or document ids are not in its string table.',
    );
  // When the documents are the memories in the same order (a store without trash or edits since its
  // build), they share the metas' checked id list: SortedKeyIndex.problemWith then checks it once.
  const sharedIds = sameNumbers(documentIds, metaIdNumbers);
  let documentIdOrder = section('documentIdOrder', 'i32', counts.documents) as Int32Array;
  if (sharedIds && sameOrder(documentIdOrder, metas.idOrder)) documentIdOrder = metas.idOrder;
  if (!Array.isArray(header.vectors))
    throw new SnapshotFormatError('corrupt', 'The index file does not list its vector indexes.');
  const vectors = header.vectors.map((entry, at): VectorCodes => ({
    model: String(entry.model),
    dims: Number(entry.dims),
    ids: stringsOf(section(`vector${at}Ids`, 'i32', entry.count) as Int32Array, string),
    codes: section(`vector${at}Codes`, 'u32', entry.words) as Uint32Array,
  }));
  return {
    stamp: header.stamp,
    metas,
    vectors,
    lexical: {
      termNames: new NumberedStrings(strings, termNumbers),
      ids: sharedIds ? metas.ids : new NumberedStrings(strings, documentIds),
      idOrder: documentIdOrder,
      lengths: section('documentLengths', 'f64', counts.documents) as Float64Array,
      postingSizes: section('postingSizes', 'i32', counts.terms) as Int32Array,
      postingDocuments: section('postingDocuments', 'i32', counts.cells) as Int32Array,
      postingTfs: section('postingTfs', 'u16', counts.cells) as Uint16Array,
    },
  };
}

type Section = (name: string, kind: SectionKind, count: number) => ArrayBufferView;

/*
 * The loops over every string and every cell are functions of their own, not loops inside the
 * decoder: a fresh process optimises a small function early, a loop inside a large one late.
 */

const ZERO = new Int32Array(1);

/** Whether every number is below `count` and at least `lowest[column]`, the numbers being rows of `lowest.length` columns. */
function numbersInRange(numbers: Int32Array, lowest: Int32Array, count: number): boolean {
  const columns = lowest.length;
  if (numbers.length % columns !== 0) return false;
  for (let row = 0; row < numbers.length; row += columns)
    for (let column = 0; column < columns; column++) {
      const number = numbers[row + column];
      if (number >= count || number < lowest[column]) return false;
    }
  return true;
}

/** The strings numbered `numbers` (a plain loop: Array.from with a mapping function was three times slower here). */
function stringsOf(numbers: Int32Array, string: (number: number) => string): string[] {
  const out = new Array<string>(numbers.length);
  for (let at = 0; at < numbers.length; at++) out[at] = string(numbers[at]);
  return out;
}

/** Whether two integer arrays hold the same values (compared as bytes). */
function sameOrder(left: Int32Array, right: Int32Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(
    Buffer.from(right.buffer, right.byteOffset, right.byteLength),
  );
}

/** Whether `numbers` equals `column` read with a stride (the memory ids' column of the metas). */
function sameNumbers(numbers: Int32Array, column: { values: Int32Array; stride: number }): boolean {
  const { values, stride } = column;
  if (numbers.length * stride !== values.length) return false;
  for (let at = 0; at < numbers.length; at++) if (numbers[at] !== values[at * stride]) return false;
  return true;
}

/** Checks every meta column against the string table and the lists, and makes metas from them on demand. */
function decodeMetas(
  section: Section,
  counts: Header['counts'],
  string: (number: number) => string,
  stringTable: PackedStrings,
): SnapshotMetas {
  const stringColumns = section('metaStrings', 'i32', counts.metas * STRING_FIELDS.length) as Int32Array;
  const numberColumns = section('metaNumbers', 'f64', counts.metas * NUMBER_FIELDS.length) as Float64Array;
  const flags = section('metaFlags', 'u8', counts.metas) as Uint8Array;
  const listCounts = section('metaListCounts', 'i32', counts.metas * 2) as Int32Array;
  const listItems = section('metaListItems', 'i32', counts.listItems) as Int32Array;
  const idOrder = section('metaIdOrder', 'i32', counts.metas) as Int32Array;
  const corrupt = (what: string): SnapshotFormatError =>
    new SnapshotFormatError('corrupt', `The index file’s ${what} do not add up.`);
  const stringCount = counts.strings;
  const nullableFields: ReadonlySet<string> = new Set([
    'project_id',
    'source_session',
    'conversation',
    'declared_project',
  ]);
  const lowest = Int32Array.from(STRING_FIELDS, (field) => (nullableFields.has(field) ? -1 : 0));
  if (!numbersInRange(stringColumns, lowest, stringCount)) throw corrupt('memory string columns');
  if (!numbersInRange(listItems, ZERO, stringCount)) throw corrupt('entity and tag lists');
  // Where each row's entities start in listItems (its tags follow them).
  const listStarts = new Int32Array(counts.metas + 1);
  for (let row = 0; row < counts.metas; row++) {
    const entities = listCounts[row * 2];
    const tags = listCounts[row * 2 + 1];
    if (entities < 0 || tags < 0) throw corrupt('entity and tag lists');
    listStarts[row + 1] = listStarts[row] + entities + tags;
  }
  if (listStarts[counts.metas] !== listItems.length) throw corrupt('entity and tag lists');
  const ids = new NumberedStrings(stringTable, stringColumns, STRING_FIELDS.length);
  const problem = SortedKeyIndex.problemWith(ids, idOrder);
  if (problem !== null) throw new SnapshotFormatError('corrupt', `The index file’s memory ids: ${problem}.`);
  const nullable = (number: number): string | null => (number === -1 ? null : string(number));
  const list = (from: number, count: number): readonly string[] => {
    // Most memories have no tags and many no entities: one shared empty list, not 100,000 of them.
    if (count === 0) return NO_ITEMS;
    const out = new Array<string>(count);
    for (let index = 0; index < count; index++) out[index] = string(listItems[from + index]);
    return out;
  };
  const meta = (row: number): MemoryMeta => {
    const s = row * STRING_FIELDS.length;
    const n = row * NUMBER_FIELDS.length;
    const flag = flags[row];
    const entityCount = listCounts[row * 2];
    return {
      memory_id: ids.at(row)!,
      layer: string(stringColumns[s + 1]),
      scope_id: string(stringColumns[s + 2]),
      project_id: nullable(stringColumns[s + 3]),
      category: string(stringColumns[s + 4]),
      subtype: string(stringColumns[s + 5]),
      entities: list(listStarts[row], entityCount),
      tags: tags(row),
      time_ms: numberColumns[n],
      confidence: numberColumns[n + 1],
      pinned: (flag & PINNED) !== 0,
      source_type: string(stringColumns[s + 6]),
      source_session: nullable(stringColumns[s + 7]),
      conversation: nullable(stringColumns[s + 8]),
      question: (flag & QUESTION) !== 0,
      deleted: (flag & DELETED) !== 0,
      superseded: (flag & SUPERSEDED) !== 0,
      importance: numberColumns[n + 2],
      access_count: numberColumns[n + 3],
      last_accessed_ms: numberColumns[n + 4],
      created_ms: numberColumns[n + 5],
      decay_factor: numberColumns[n + 6],
      declared_project: nullable(stringColumns[s + 9]),
      anchored: (flag & ANCHORED) !== 0,
    };
  };
  const tags = (row: number): readonly string[] => list(listStarts[row] + listCounts[row * 2], listCounts[row * 2 + 1]);
  const pinned = (row: number): boolean => (flags[row] & PINNED) !== 0;
  const columns: LoadedMetaColumns = {
    ids,
    strings: stringColumns,
    numbers: numberColumns,
    flags,
    listStarts,
    listCounts,
    listItems,
    stringTable,
  };
  return { ids, idOrder, meta, pinned, tags, columns };
}

function parseHeader(bytes: Buffer): { header: Header; bodyStart: number } {
  if (bytes.length < SNAPSHOT_MAGIC.length + 4 || !bytes.subarray(0, SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC)) {
    throw new SnapshotFormatError('not-a-snapshot', 'The file is not a persisted memory index.');
  }
  const headerLength = bytes.readUInt32LE(SNAPSHOT_MAGIC.length);
  const headerEnd = SNAPSHOT_MAGIC.length + 4 + headerLength;
  if (headerEnd > bytes.length)
    throw new SnapshotFormatError('corrupt', 'The index file is cut short inside its header.');
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', SNAPSHOT_MAGIC.length + 4, headerEnd)) as Header;
  } catch (error) {
    throw new SnapshotFormatError(
      'corrupt',
      `The index file's header is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (header.format !== 'fml-index')
    throw new SnapshotFormatError('not-a-snapshot', 'The file is not a persisted memory index.');
  if (header.formatVersion !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotFormatError(
      'format-version',
      `The index file has format version ${header.formatVersion}; this build reads version ${SNAPSHOT_FORMAT_VERSION}.`,
    );
  }
  if (header.byteOrder !== 'LE' || endianness() !== 'LE')
    throw new SnapshotFormatError('byte-order', 'Persisted indexes are little-endian; this machine or file is not.');
  return { header, bodyStart: align8(headerEnd) };
}

/** A typed view of one section, read in place when aligned (always, for files this module wrote). */
function sectionReader(body: Buffer, entries: readonly SectionEntry[]): Section {
  return (name: string, kind: SectionKind, count: number): ArrayBufferView => {
    const entry = entries.find((candidate) => candidate.name === name);
    const width = kind === 'f64' ? 8 : kind === 'u8' ? 1 : kind === 'u16' ? 2 : 4;
    if (
      entry === undefined ||
      entry.kind !== kind ||
      entry.bytes !== count * width ||
      entry.offset < 0 ||
      entry.offset + entry.bytes > body.length
    ) {
      throw new SnapshotFormatError('corrupt', `The index file's section "${name}" is missing or of the wrong size.`);
    }
    let start = body.byteOffset + entry.offset;
    let buffer = body.buffer;
    if (start % width !== 0) {
      const copy = new Uint8Array(entry.bytes);
      copy.set(body.subarray(entry.offset, entry.offset + entry.bytes));
      buffer = copy.buffer;
      start = 0;
    }
    if (kind === 'i32') return new Int32Array(buffer, start, count);
    if (kind === 'u32') return new Uint32Array(buffer, start, count);
    if (kind === 'f64') return new Float64Array(buffer, start, count);
    if (kind === 'f32') return new Float32Array(buffer, start, count);
    if (kind === 'u16') return new Uint16Array(buffer, start, count);
    return new Uint8Array(buffer, start, count);
  };
}

/** The characters section's code units read in place (copied only if the file's buffer leaves them unaligned). */
function characterCodes(body: Buffer, entry: SectionEntry): Uint8Array | Uint16Array {
  if (entry.kind === 'latin1') return body.subarray(entry.offset, entry.offset + entry.bytes);
  const start = body.byteOffset + entry.offset;
  if (start % 2 === 0) return new Uint16Array(body.buffer, start, entry.bytes / 2);
  return new Uint16Array(Uint8Array.from(body.subarray(entry.offset, entry.offset + entry.bytes)).buffer);
}

function charactersSection(header: Header, bodyLength: number): SectionEntry {
  const entry = header.sections.find((candidate) => candidate.name === 'characters');
  if (
    entry === undefined ||
    (entry.kind !== 'utf16' && entry.kind !== 'latin1') ||
    (entry.kind === 'utf16' && entry.bytes % 2 !== 0) ||
    entry.offset < 0 ||
    entry.offset + entry.bytes > bodyLength
  ) {
    throw new SnapshotFormatError('corrupt', "The index file's string characters are missing or out of bounds.");
  }
  return entry;
}

function align8(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}
