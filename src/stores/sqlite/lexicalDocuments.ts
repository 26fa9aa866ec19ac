import type { MemoryRecord } from '../../core/domain/records.ts';
import { ANALYZER_VERSION, analyzeDocument } from '../../core/text/analyzer.ts';
import type { AnalyzedDocument } from '../../core/text/analyzer.ts';
import type { StatementCache } from './statementCache.ts';

export interface LexicalSource {
  memory_id: string;
  analyzed: AnalyzedDocument;
  /** True when the stored analysis was missing or from another analyzer version. */
  reanalyzed: boolean;
}

function serializeTerms(analyzed: AnalyzedDocument): string {
  return JSON.stringify([...analyzed.terms]);
}

/** Call inside the memory's write transaction so the analysis never lags the row. */
export function writeLexicalDocument(sql: StatementCache, memory: MemoryRecord, analyzed: AnalyzedDocument): void {
  sql
    .get(
      `INSERT INTO lexical_documents (memory_id, user_id, analyzer_version, length, terms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (memory_id) DO UPDATE SET user_id = excluded.user_id, analyzer_version = excluded.analyzer_version,
         length = excluded.length, terms = excluded.terms`,
    )
    .run(memory.memory_id, memory.user_id, ANALYZER_VERSION, analyzed.length, serializeTerms(analyzed));
}

const LEXICAL_COLUMNS = `m.rowid AS row_number, m.memory_id, l.length, l.terms,
              CASE WHEN l.analyzer_version = ?2 THEN NULL ELSE m.content END AS content,
              CASE WHEN l.analyzer_version = ?2 THEN NULL ELSE m.summary END AS summary,
              CASE WHEN l.analyzer_version = ?2 THEN NULL ELSE m.entities END AS entities,
              CASE WHEN l.analyzer_version = ?2 THEN NULL ELSE m.tags END AS tags,
              CASE WHEN l.analyzer_version = ?2 THEN NULL ELSE m.metadata END AS metadata
       FROM long_term_memories m LEFT JOIN lexical_documents l ON l.memory_id = m.memory_id AND l.analyzer_version = ?2`;

/**
 * Live rows of a user with their analysis: the stored one when current, otherwise analysed
 * now from the text (the CASE keeps SQLite from reading long content it does not need).
 */
export function* iterateLexicalSources(sql: StatementCache, userId: string): Generator<LexicalSource> {
  const rows = sql
    .get(`SELECT ${LEXICAL_COLUMNS} WHERE m.user_id = ?1 AND m.deleted_at IS NULL`)
    .iterate(userId, ANALYZER_VERSION);
  for (const row of rows) yield lexicalSourceOf(row);
}

/**
 * One page of `iterateLexicalSources` in rowid order after `afterRow`, for index builds that
 * yield between pages. The `+` keeps SQLite on the rowid range (each page reads only its rows)
 * instead of the user index, which would sort the whole user again for every page.
 */
export function readLexicalPage(
  sql: StatementCache,
  userId: string,
  afterRow: number,
  limit: number,
): { sources: LexicalSource[]; lastRow: number | null } {
  const rows = sql
    .get(
      `SELECT ${LEXICAL_COLUMNS} WHERE m.rowid > ?3 AND +m.user_id = ?1 AND +m.deleted_at IS NULL ORDER BY m.rowid LIMIT ?4`,
    )
    .all(userId, ANALYZER_VERSION, afterRow, limit);
  return {
    sources: rows.map(lexicalSourceOf),
    lastRow: rows.length === 0 ? null : Number(rows[rows.length - 1]!.row_number),
  };
}

function lexicalSourceOf(row: Record<string, unknown>): LexicalSource {
  const memory_id = row.memory_id as string;
  if (row.terms !== null) {
    const terms = new Map(JSON.parse(row.terms as string) as [string, number][]);
    return { memory_id, analyzed: { terms, length: Number(row.length) }, reanalyzed: false };
  }
  const analyzed = analyzeDocument({
    content: row.content as string,
    summary: row.summary as string | null,
    entities: JSON.parse(row.entities as string) as string[],
    tags: JSON.parse(row.tags as string) as string[],
    metadata: row.metadata === null ? {} : (JSON.parse(row.metadata as string) as Record<string, unknown>),
  });
  return { memory_id, analyzed, reanalyzed: true };
}

/**
 * Stores analyses made while building an index, so the next process need not redo them. Only
 * fills gaps and outdated rows: a current analysis written meanwhile by an edit always wins.
 */
export function saveReanalyzed(sql: StatementCache, userId: string, sources: readonly LexicalSource[]): void {
  const upsert = sql.get(
    `INSERT INTO lexical_documents (memory_id, user_id, analyzer_version, length, terms)
     SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM long_term_memories WHERE memory_id = ?1 AND user_id = ?2)
     ON CONFLICT (memory_id) DO UPDATE SET analyzer_version = excluded.analyzer_version, length = excluded.length, terms = excluded.terms
     WHERE lexical_documents.analyzer_version <> excluded.analyzer_version`,
  );
  for (const source of sources)
    upsert.run(source.memory_id, userId, ANALYZER_VERSION, source.analyzed.length, serializeTerms(source.analyzed));
}
