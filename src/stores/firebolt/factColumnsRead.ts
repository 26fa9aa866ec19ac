import type { MemoryRecord } from '../../core/domain/records.ts';
import type { TurnFacts } from '../../core/domain/dialogTurn.ts';
import { storedBoolean, storedNullableText, storedText } from '../common/storedValues.ts';
import { chunks } from './chunks.ts';
import type { TransactionScope } from './queryClient.ts';
import { MEMORY_COLUMNS, columnNames, memoryFromRow } from './recordRows.ts';
import type { FireboltValue } from './resultParser.ts';
import { SqlParams } from './sqlParams.ts';

const IDS_PER_QUERY = 200;

/** How one kind of per-memory facts is read: the columns to select and how a row or a whole record gives them. */
export interface FactColumnsReader<Facts> {
  /** The columns to select; they include the turn-fact columns (turnFactColumns.ts). */
  readonly columns: string;
  /** The row's memory id and its facts, given the row's turn facts (filled, so never null here). */
  readonly fromRow: (row: Record<string, FireboltValue>, turn: TurnFacts) => readonly [string, Facts];
  /** The facts of a row read whole, for rows written before the turn-fact columns were filled. */
  readonly fromMemory: (memory: MemoryRecord) => Facts;
}

/**
 * The facts of the user's live memories with these ids, from the reader's columns; a row whose
 * turn facts are not filled yet (NULL `asks_question`: written before schema version 4, filled at
 * open) is read whole and its facts derived from the record.
 */
export async function readFactColumns<Facts>(
  scope: TransactionScope,
  userId: string,
  memoryIds: readonly string[],
  reader: FactColumnsReader<Facts>,
): Promise<Map<string, Facts>> {
  const out = new Map<string, Facts>();
  const unfilled: string[] = [];
  for (const batch of chunks([...new Set(memoryIds)], IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await scope.query(
      `SELECT ${reader.columns} FROM fml_memories
       WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)}) AND deleted_at IS NULL`,
      params.values,
    );
    for (const row of rows) {
      if (row.asks_question === null || row.asks_question === undefined) {
        unfilled.push(storedText(row.memory_id, 'memory_id'));
        continue;
      }
      const [id, facts] = reader.fromRow(row, {
        conversation: storedNullableText(row.conversation_key, 'conversation_key'),
        question: storedBoolean(row.asks_question, 'asks_question'),
      });
      out.set(id, facts);
    }
  }
  for (const batch of chunks(unfilled, IDS_PER_QUERY)) {
    const params = new SqlParams();
    const { rows } = await scope.query(
      `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories
       WHERE user_id = ${params.add(userId)} AND memory_id IN (${params.list(batch)}) AND deleted_at IS NULL`,
      params.values,
    );
    for (const memory of rows.map(memoryFromRow)) out.set(memory.memory_id, reader.fromMemory(memory));
  }
  return out;
}
