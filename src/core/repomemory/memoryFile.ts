import type { MemoryCategory, MemorySubtype } from '../domain/taxonomy.ts';
import type { FactValue } from '../facts/factModel.ts';

/**
 * One project-layer memory as a file of the repository's `.memory/` folder (issue #34): front
 * matter between `---` lines, then the memory text. The field set is declared here once; the
 * parser and the serializer both follow it.
 */
export interface MemoryFile {
  /** Stable across developers: the memory id it was first written from. */
  id: string;
  category: MemoryCategory;
  subtype: MemorySubtype;
  tags: string[];
  /** Anchors as agents write them: "src/a.ts#symbol" or "src/a.ts:10-20". */
  anchors: string[];
  created: string;
  updated: string;
  /** Bumped on every change written; with `updated` it decides which side is newer. */
  version: number;
  pinned: boolean;
  /** A structured fact (seed 002: category, key, value), written as a list of the three; absent for other memories. */
  fact?: FactValue;
  body: string;
}

export const MEMORY_FOLDER = '.memory';

export const FRONT_MATTER_FIELDS = [
  'id',
  'category',
  'subtype',
  'tags',
  'anchors',
  'created',
  'updated',
  'version',
  'pinned',
  'fact',
] as const;

export type FrontMatterField = (typeof FRONT_MATTER_FIELDS)[number];

/** What is wrong with a memory file, where: the Problems panel and the CLI log show it. */
export interface MemoryFileDiagnostic {
  path: string;
  /** 1-based line of the file. */
  line: number;
  code: MemoryFileProblem;
  message: string;
}

export type MemoryFileProblem =
  | 'MALFORMED_FRONT_MATTER'
  | 'UNKNOWN_FIELD'
  | 'DUPLICATE_FIELD'
  | 'MISSING_FIELD'
  | 'INVALID_FIELD'
  | 'EMPTY_BODY'
  | 'CONFLICT_MARKERS'
  | 'SECRET_IN_FILE'
  /** The sync's own findings (repoMemorySync.ts): */
  | 'DUPLICATE_ID'
  | 'UNREADABLE_FILE'
  | 'SECRET_NOT_WRITTEN'
  | 'NOT_IMPORTED'
  | 'SYNC_FAILED'
  | 'AGENTS_SECTION';
