import { MemoryError } from '../../core/domain/errors.ts';
import { applyChange, changesIndexedText } from '../../core/domain/memoryChange.ts';
import type { ChangeOutcome, ChangeRequest } from '../../core/domain/memoryChange.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';
import { ANALYZER_VERSION } from '../../core/text/analyzer.ts';
import { insertVector } from './embeddingRows.ts';
import { writeTerms } from './lexicalTerms.ts';
import type { TransactionScope } from './queryClient.ts';
import { MEMORY_COLUMNS, columnNames, memoryFromRow, valuePlaceholders } from './recordRows.ts';
import { sqlIdentifier } from './sqlLiteral.ts';
import { SqlParams } from './sqlParams.ts';
import { sqlLiteral } from './sqlLiteral.ts';
import { TURN_FACT_COLUMNS, turnFactAssignments, turnFactValues } from './turnFactColumns.ts';
import type { VectorTable } from './vectorTables.ts';

const REINDEX_BATCH = 100;

/** The rows a memory's insert and change write on Firebolt; each runs inside the caller's write transaction. */

/** The memory row and its terms; an erased id is refused. `nextSequence` numbers the row in storage order. */
export async function insertMemoryRow(
  tx: TransactionScope,
  memory: MemoryRecord,
  nextSequence: () => number,
): Promise<void> {
  const erased = await tx.query('SELECT memory_id FROM fml_erased_memories WHERE user_id = $1 AND memory_id = $2', [
    memory.user_id,
    memory.memory_id,
  ]);
  if (erased.rows.length > 0) {
    throw new MemoryError('INVALID_INPUT', `Memory ${memory.memory_id} was erased; its id cannot be stored again.`, {
      details: { field: 'memory_id', memory_id: memory.memory_id },
    });
  }
  const length = await writeTerms(tx, memory);
  const params = new SqlParams();
  await tx.query(
    `INSERT INTO fml_memories (${columnNames(MEMORY_COLUMNS)}, doc_length, analyzer_version, stored_seq, ${TURN_FACT_COLUMNS})
     VALUES (${valuePlaceholders(MEMORY_COLUMNS, memory, (v) => params.add(v))}, ${params.add(length)}::DOUBLE PRECISION, ${params.add(ANALYZER_VERSION)}::INT, ${params.add(nextSequence())}::BIGINT, ${turnFactValues(memory, params)})`,
    params.values,
  );
}

/**
 * Reads the row, applies the change to it, and UPDATEs only the version that was read, so a
 * change can never land on a row it did not see. A new embedding replaces the memory's vectors.
 */
export async function changeMemoryRow(
  tx: TransactionScope,
  request: ChangeRequest,
  vectorTables: readonly VectorTable[],
  vectorTable: string | null,
): Promise<ChangeOutcome> {
  const { embedding } = request.change;
  const reanalyse = changesIndexedText(request.change);
  const { rows } = await tx.query(
    `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE user_id = $1 AND memory_id = $2 LIMIT 1`,
    [request.user_id, request.memory_id],
  );
  const current = rows.length > 0 ? memoryFromRow(rows[0]) : undefined;
  const model = embedding === undefined ? (current?.embedding_model ?? null) : (embedding?.model ?? null);
  const outcome = applyChange(current, request, model);
  if (outcome.status !== 'applied' || current === undefined) return outcome;
  const memory = outcome.memory;
  const params = new SqlParams();
  const assignments = MEMORY_COLUMNS.filter((column) => column.name !== 'user_id' && column.name !== 'memory_id').map(
    (column) => `${column.name} = ${params.add(column.encode(memory))}${column.cast}`,
  );
  assignments.push(...turnFactAssignments(memory, params));
  if (reanalyse) {
    const length = await writeTerms(tx, memory);
    assignments.push(
      `doc_length = ${params.add(length)}::DOUBLE PRECISION`,
      `analyzer_version = ${params.add(ANALYZER_VERSION)}::INT`,
    );
  }
  await tx.query(
    `UPDATE fml_memories SET ${assignments.join(', ')} WHERE user_id = ${params.add(memory.user_id)} AND memory_id = ${params.add(memory.memory_id)} AND version = ${params.add(current.version)}::BIGINT`,
    params.values,
  );
  for (const existing of vectorTables) {
    await tx.query(`DELETE FROM ${sqlIdentifier(existing.table)} WHERE user_id = $1 AND memory_id = $2`, [
      memory.user_id,
      memory.memory_id,
    ]);
  }
  if (embedding && vectorTable) await insertVector(tx, vectorTable, memory, embedding);
  return outcome;
}

/** Memories indexed by an older analyzer get their term rows rebuilt, in batches, at open. */
export async function reindexStaleTerms(
  scope: TransactionScope,
  write: (work: (tx: TransactionScope) => Promise<void>) => Promise<void>,
): Promise<void> {
  for (;;) {
    const { rows } = await scope.query(
      `SELECT ${columnNames(MEMORY_COLUMNS)} FROM fml_memories WHERE analyzer_version <> $1 ORDER BY user_id, memory_id LIMIT ${sqlLiteral(REINDEX_BATCH)}`,
      [ANALYZER_VERSION],
    );
    if (rows.length === 0) return;
    for (const memory of rows.map(memoryFromRow)) {
      await write(async (tx) => {
        const length = await writeTerms(tx, memory);
        await tx.query(
          'UPDATE fml_memories SET doc_length = $1, analyzer_version = $2 WHERE user_id = $3 AND memory_id = $4',
          [length, ANALYZER_VERSION, memory.user_id, memory.memory_id],
        );
      });
    }
  }
}
