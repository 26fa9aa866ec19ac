import { turnFactsOf, type TurnFacts } from '../../core/domain/dialogTurn.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';
import { storedText } from '../common/storedValues.ts';
import { readFactColumns, type FactColumnsReader } from './factColumnsRead.ts';
import type { TransactionScope } from './queryClient.ts';
import { MEMORY_COLUMNS, columnNames, memoryFromRow } from './recordRows.ts';
import { sqlLiteral } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';

/**
 * The turn-fact columns of fml_memories (schema version 4): each memory's conversation key and
 * question flag (dialogTurn.ts), written with the row by every insert and change, so neighbour
 * expansion reads two small columns instead of whole rows (MemoryStore.turnFacts). A NULL
 * `asks_question` marks a row written before the columns existed: filled at open, and read from
 * the row until then.
 */
export const TURN_FACT_COLUMNS = 'conversation_key, asks_question';

const FILL_BATCH = 100;

/** The VALUES of TURN_FACT_COLUMNS for an INSERT. */
export function turnFactValues(memory: MemoryRecord, params: SqlParams): string {
  const facts = turnFactsOf(memory);
  return `${params.add(facts.conversation)}::TEXT, ${params.add(facts.question)}::BOOLEAN`;
}

/** The SET assignments of TURN_FACT_COLUMNS for an UPDATE of the whole row. */
export function turnFactAssignments(memory: MemoryRecord, params: SqlParams): string[] {
  const facts = turnFactsOf(memory);
  return [
    `conversation_key = ${params.add(facts.conversation)}::TEXT`,
    `asks_question = ${params.add(facts.question)}::BOOLEAN`,
  ];
}

const TURN_FACTS_READER: FactColumnsReader<TurnFacts> = {
  columns: `memory_id, ${TURN_FACT_COLUMNS}`,
  fromRow: (row, turn) => [storedText(row.memory_id, 'memory_id'), turn],
  fromMemory: turnFactsOf,
};

/** The turn facts of the user's live memories with these ids; a row without them yet is read whole. */
export function readTurnFacts(
  scope: TransactionScope,
  userId: string,
  memoryIds: readonly string[],
): Promise<Map<string, TurnFacts>> {
  return readFactColumns(scope, userId, memoryIds, TURN_FACTS_READER);
}

/**
 * Writes the turn facts of rows stored before the columns existed, a batch per transaction. Only
 * the version that was read is updated: a row changed meanwhile is read again in a later batch.
 * Stops when a batch finds only rows it already tried (readTurnFacts reads those from the row).
 */
export async function fillTurnFacts(
  scope: TransactionScope,
  write: (work: (tx: TransactionScope) => Promise<void>) => Promise<void>,
): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    const { rows } = await scope.query(
      `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE asks_question IS NULL
       ORDER BY user_id, memory_id LIMIT ${sqlLiteral(FILL_BATCH)}`,
    );
    const memories = rows.map(memoryFromRow);
    const fresh = memories.filter((memory) => !tried.has(`${memory.user_id}\u0000${memory.memory_id}`));
    if (fresh.length === 0) return;
    await write(async (tx) => {
      for (const memory of fresh) {
        tried.add(`${memory.user_id}\u0000${memory.memory_id}`);
        const params = new SqlParams();
        const assignments = turnFactAssignments(memory, params);
        await tx.query(
          `UPDATE fml_memories SET ${assignments.join(', ')}
           WHERE user_id = ${params.add(memory.user_id)} AND memory_id = ${params.add(memory.memory_id)}
             AND version = ${params.add(memory.version)}::BIGINT AND asks_question IS NULL`,
          params.values,
        );
      }
    });
  }
}
