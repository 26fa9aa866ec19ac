import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryFilter } from '../../core/ports/memoryStore.ts';
import type { SqlParams } from './sqlParams.ts';

/**
 * The WHERE conditions of a MemoryFilter over `fml_memories` aliased `alias`; the same text
 * serves listing, lexical and vector search so the three cannot disagree.
 */
export function memoryFilterSql(filter: MemoryFilter, params: SqlParams, alias = 'm'): string {
  const col = (name: string): string => `${alias}.${name}`;
  const conditions = [`${col('user_id')} = ${params.add(filter.user_id)}`];
  const state = filter.state ?? 'live';
  if (state === 'live') conditions.push(`${col('deleted_at')} IS NULL`);
  else if (state === 'deleted') conditions.push(`${col('deleted_at')} IS NOT NULL`);
  if (!filter.include_superseded) conditions.push(`${col('superseded_by')} IS NULL`);
  if (filter.project_id !== undefined) {
    conditions.push(
      filter.project_id === null
        ? `${col('project_id')} IS NULL`
        : `(${col('project_id')} IS NULL OR ${col('project_id')} = ${params.add(filter.project_id)})`,
    );
  }
  if (filter.scopes !== undefined) {
    const scopes = filter.scopes.map(
      (scope) =>
        `(${col('layer')} = ${params.add(scope.layer)} AND ${col('scope_id')} = ${params.add(scope.scope_id)})`,
    );
    conditions.push(scopes.length === 0 ? 'FALSE' : `(${scopes.join(' OR ')})`);
  }
  const inList = (column: string, values: readonly string[] | undefined): void => {
    if (values === undefined) return;
    conditions.push(values.length === 0 ? 'FALSE' : `${col(column)} IN (${params.list(values)})`);
  };
  inList('memory_category', filter.categories);
  inList('memory_subtype', filter.subtypes);
  inList('source_type', filter.source_types);
  const overlap = (column: string, values: readonly string[] | undefined): void => {
    if (values === undefined) return;
    conditions.push(
      values.length === 0 ? 'FALSE' : `ARRAYS_OVERLAP(${col(column)}, ${params.add(values)}::ARRAY(TEXT))`,
    );
  };
  overlap('entities', filter.entities);
  overlap('tags', filter.tags);
  const time = `COALESCE(${col('event_time')}, ${col('created_at')})`;
  if (filter.after !== undefined)
    conditions.push(`${time} >= ${params.add(instant(filter.after, 'after'))}::TIMESTAMPTZ`);
  if (filter.before !== undefined)
    conditions.push(`${time} <= ${params.add(instant(filter.before, 'before'))}::TIMESTAMPTZ`);
  if (filter.min_confidence !== undefined)
    conditions.push(`${col('confidence')} >= ${params.add(filter.min_confidence)}`);
  if (filter.pinned !== undefined) conditions.push(`${col('pinned')} = ${params.add(filter.pinned)}`);
  return conditions.join(' AND ');
}

function instant(value: string, field: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new MemoryError('INVALID_INPUT', `Filter ${field} must be an ISO-8601 timestamp; got "${value}".`, {
      details: { field },
    });
  }
  return new Date(ms).toISOString();
}
