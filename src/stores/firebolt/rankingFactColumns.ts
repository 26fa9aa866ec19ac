import {
  RANKING_SOURCE_FIELDS,
  rankingFactsFrom,
  rankingFactsOf,
  type RankingFacts,
} from '../../core/domain/rankingFacts.ts';
import { storedBoolean, storedNullableText } from '../common/storedValues.ts';
import { chunks } from './chunks.ts';
import type { TransactionScope } from './queryClient.ts';
import { MEMORY_COLUMNS, columnNames, memoryFromRow, rankingSourceFromRow } from './recordRows.ts';
import { SqlParams } from './sqlParams.ts';
import { TURN_FACT_COLUMNS } from './turnFactColumns.ts';

const IDS_PER_QUERY = 200;

/**
 * The ranking facts (rankingFacts.ts) of the user's live memories with these ids, from the row's
 * columns without its text (content, summary, tags, related memories) and the turn-fact columns
 * (turnFactColumns.ts); a row whose turn facts are not filled yet is read whole.
 */
export async function readRankingFacts(
  scope: TransactionScope,
  userId: string,
  memoryIds: readonly string[],
): Promise<Map<string, RankingFacts>> {
  const out = new Map<string, RankingFacts>();
  const unfilled: string[] = [];
  for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await scope.query(
      `SELECT ${RANKING_SOURCE_FIELDS.join(', ')}, ${TURN_FACT_COLUMNS} FROM fml_memories
       WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)}) AND deleted_at IS NULL`,
      params.values,
    );
    for (const row of rows) {
      const source = rankingSourceFromRow(row);
      if (row.asks_question === null || row.asks_question === undefined) unfilled.push(source.memory_id);
      else
        out.set(
          source.memory_id,
          rankingFactsFrom(source, {
            conversation: storedNullableText(row.conversation_key, 'conversation_key'),
            question: storedBoolean(row.asks_question, 'asks_question'),
          }),
        );
    }
  }
  for (const batch of chunks(unfilled, IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await scope.query(
      `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories
       WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)}) AND deleted_at IS NULL`,
      params.values,
    );
    for (const memory of rows.map(memoryFromRow)) out.set(memory.memory_id, rankingFactsOf(memory));
  }
  return out;
}
