import type { LexicalHit, LexicalQuery, PartMatch, TermStatistics } from '../../core/ports/memoryStore.ts';
import { isWordPart, partsToLookFor } from '../../core/text/wordParts.ts';
import { storedText } from '../common/storedValues.ts';
import { DEFAULT_BM25 } from '../common/lexicalIndex.ts';
import { analyzeDocument } from '../../core/text/analyzer.ts';
import { memoryFilterSql } from './memoryFilterSql.ts';
import type { TransactionScope } from './queryClient.ts';
import type { FireboltQueryClient } from './queryClient.ts';
import { batchesByEncodedSize } from './requestTarget.ts';
import { sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';

/** Rows per INSERT at most; batches are also cut by their encoded size (requestTarget.ts). */
const TERMS_PER_INSERT = 150;

export interface LexicalSource {
  user_id: string;
  memory_id: string;
  content: string;
  summary: string | null;
  entities: readonly string[];
  tags: readonly string[];
  /** Carries the memory's search keys (core/text/searchKeys.ts). */
  metadata?: Readonly<Record<string, unknown>>;
}

/**
 * Replaces the term rows of one memory (the inverted index BM25 runs on) and returns the
 * document length to store on the memory row.
 */
export async function writeTerms(tx: TransactionScope, source: LexicalSource): Promise<number> {
  await tx.query('DELETE FROM fml_memory_terms WHERE user_id = $1 AND memory_id = $2', [
    source.user_id,
    source.memory_id,
  ]);
  const analyzed = analyzeDocument(source);
  const entries = [...analyzed.terms].filter(([, tf]) => tf > 0);
  for (const batch of batchesByEncodedSize(entries, ([term, tf]) => [term, tf], TERMS_PER_INSERT)) {
    const params = new SqlParams();
    const user = params.add(source.user_id);
    const memory = params.add(source.memory_id);
    const rows = batch.map(
      ([term, tf]) =>
        `(${user}::TEXT, ${params.add(term)}::TEXT, ${memory}::TEXT, ${params.add(tf)}::DOUBLE PRECISION)`,
    );
    await tx.query(
      `INSERT INTO fml_memory_terms (user_id, term, memory_id, tf) VALUES ${rows.join(', ')}`,
      params.values,
    );
  }
  return analyzed.length;
}

/**
 * BM25 in SQL, the same formula as the in-memory LexicalIndex: corpus statistics (N, average
 * length, document frequency) over the user's live memories, the filter applied before the
 * top-k cut, ties broken by memory_id.
 */
/** `client` may be a transaction: the insert's duplicate check runs it inside its write. */
export async function searchLexicalSql(client: TransactionScope, query: LexicalQuery): Promise<LexicalHit[]> {
  const weights = new Map<string, number>();
  for (const { term, weight } of query.terms) if (weight > 0) weights.set(term, (weights.get(term) ?? 0) + weight);
  if (weights.size === 0 || query.limit <= 0) return [];
  const { k1, b } = DEFAULT_BM25;
  const params = new SqlParams();
  const user = params.add(query.filter.user_id);
  const terms = [...weights].map(
    ([term, weight]) => `SELECT ${params.add(term)}::TEXT AS term, ${params.add(weight)}::DOUBLE PRECISION AS weight`,
  );
  const filter = memoryFilterSql(query.filter, params, 'm');
  const sql = `WITH q AS (${terms.join(' UNION ALL ')}),
    corpus AS (SELECT memory_id, doc_length FROM fml_memories WHERE user_id = ${user} AND deleted_at IS NULL),
    stats AS (SELECT COUNT(*) AS n, CASE WHEN AVG(doc_length) > 0 THEN AVG(doc_length) ELSE 1 END AS avg_len FROM corpus),
    postings AS (
      SELECT t.memory_id, t.term, t.tf, q.weight, c.doc_length
      FROM fml_memory_terms t JOIN q ON q.term = t.term JOIN corpus c ON c.memory_id = t.memory_id
      WHERE t.user_id = ${user}),
    df AS (SELECT term, COUNT(*) AS df FROM postings GROUP BY term)
    SELECT p.memory_id AS memory_id,
      SUM(p.weight * LN(1 + (s.n - d.df + 0.5) / (d.df + 0.5)) * p.tf * ${sqlLiteral(k1 + 1)}
          / (p.tf + ${sqlLiteral(k1)} * (1 - ${sqlLiteral(b)} + ${sqlLiteral(b)} * p.doc_length / s.avg_len))) AS score
    FROM postings p
      JOIN df d ON d.term = p.term
      JOIN fml_memories m ON m.user_id = ${user} AND m.memory_id = p.memory_id
      CROSS JOIN stats s
    WHERE ${filter}
    GROUP BY p.memory_id
    ORDER BY score DESC, p.memory_id ASC
    LIMIT ${sqlLiteral(Math.floor(query.limit))}`;
  const { rows } = await client.query(sql, params.values);
  if (rows.length === 0) return [];
  const parts = partsToLookFor(query.parts ?? []);
  const matched = await matchedTerms(
    client,
    query.filter.user_id,
    rows.map((row) => storedText(row.memory_id, 'memory_id')),
    [...weights.keys()],
    parts,
  );
  return rows.map((row) => {
    const memoryId = storedText(row.memory_id, 'memory_id');
    const terms = matched.get(memoryId);
    const hit: LexicalHit = {
      memory_id: memoryId,
      score: Number(row.score),
      matched_terms: [...weights.keys()].filter((term) => terms?.has(term)),
    };
    // As SQLite's index: no parts asked (none, or an empty list), no part_matches reported.
    return query.parts === undefined || query.parts.length === 0
      ? hit
      : { ...hit, part_matches: partMatchesIn(terms, parts) };
  });
}

/** The parts that begin or end one of a hit's longer words, each once with the first such word (in term order, as SQLite's index reports the first). */
function partMatchesIn(terms: ReadonlySet<string> | undefined, parts: readonly string[]): PartMatch[] {
  const found: PartMatch[] = [];
  const sorted = [...(terms ?? [])].sort();
  for (const part of parts) {
    const term = sorted.find((candidate) => isWordPart(part, candidate));
    if (term !== undefined) found.push({ part, term });
  }
  return found;
}

/** N and document frequencies over the user's live memories, as searchLexicalSql computes them. */
export async function readTermStatistics(
  client: FireboltQueryClient,
  userId: string,
  terms: readonly string[],
): Promise<TermStatistics> {
  const params = new SqlParams();
  const user = params.add(userId);
  const unique = [...new Set(terms)];
  const df =
    unique.length === 0
      ? ''
      : ` UNION ALL SELECT t.term AS term, COUNT(*) AS n FROM fml_memory_terms t JOIN fml_memories m ON m.user_id = t.user_id AND m.memory_id = t.memory_id
          WHERE t.user_id = ${user} AND m.deleted_at IS NULL AND t.term IN (${params.list(unique)}) GROUP BY t.term`;
  const sql = `SELECT NULL::TEXT AS term, COUNT(*) AS n FROM fml_memories WHERE user_id = ${user} AND deleted_at IS NULL${df}`;
  const { rows } = await client.query(sql, params.values);
  const frequencies = new Map<string, number>();
  let documents = 0;
  for (const row of rows) {
    if (row.term === null) documents = Number(row.n);
    else frequencies.set(storedText(row.term, 'term'), Number(row.n));
  }
  return { documents, frequencies };
}

async function matchedTerms(
  client: TransactionScope,
  userId: string,
  memoryIds: readonly string[],
  terms: readonly string[],
  parts: readonly string[],
): Promise<Map<string, Set<string>>> {
  const params = new SqlParams();
  // Firebolt's LIKE takes its pattern as a TEXT constant (like page), so the pattern is a literal, not
  // a `$n`. A part is letters only (partsToLookFor), so it holds no wildcard and cannot end the
  // literal; the words it matches are tested again in partMatchesIn.
  const holding = parts.map((part) => ` OR term LIKE ${sqlLiteral(`${part}%`)} OR term LIKE ${sqlLiteral(`%${part}`)}`);
  const sql = `SELECT memory_id, term FROM fml_memory_terms
    WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(memoryIds)}) AND (term IN (${params.list(terms)})${holding.join('')})`;
  const { rows } = await client.query(sql, params.values);
  const byMemory = new Map<string, Set<string>>();
  for (const row of rows) {
    const set = byMemory.get(storedText(row.memory_id, 'memory_id')) ?? new Set<string>();
    set.add(storedText(row.term, 'term'));
    byMemory.set(storedText(row.memory_id, 'memory_id'), set);
  }
  return byMemory;
}
