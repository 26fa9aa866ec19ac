import {
  RANKING_SOURCE_FIELDS,
  rankingFactsFrom,
  rankingFactsOf,
  type RankingFacts,
} from '../../core/domain/rankingFacts.ts';
import { readFactColumns, type FactColumnsReader } from './factColumnsRead.ts';
import type { TransactionScope } from './queryClient.ts';
import { rankingSourceFromRow } from './recordRows.ts';
import { TURN_FACT_COLUMNS } from './turnFactColumns.ts';

const RANKING_FACTS_READER: FactColumnsReader<RankingFacts> = {
  columns: `${RANKING_SOURCE_FIELDS.join(', ')}, ${TURN_FACT_COLUMNS}`,
  fromRow: (row, turn) => {
    const source = rankingSourceFromRow(row);
    return [source.memory_id, rankingFactsFrom(source, turn)];
  },
  fromMemory: rankingFactsOf,
};

/**
 * The ranking facts (rankingFacts.ts) of the user's live memories with these ids, from the row's
 * columns without its text (content, summary, tags, related memories) and the turn-fact columns
 * (turnFactColumns.ts); a row whose turn facts are not filled yet is read whole.
 */
export function readRankingFacts(
  scope: TransactionScope,
  userId: string,
  memoryIds: readonly string[],
): Promise<Map<string, RankingFacts>> {
  return readFactColumns(scope, userId, memoryIds, RANKING_FACTS_READER);
}
