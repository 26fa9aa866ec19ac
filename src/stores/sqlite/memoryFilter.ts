import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryFilter } from '../../core/ports/memoryStore.ts';
import type { MemoryMeta } from './memoryMeta.ts';

export type MemoryPredicate = (meta: MemoryMeta) => boolean;

/**
 * The single definition of what a MemoryFilter admits, shared by lexical search, vector search
 * and listing so the three can never disagree. `user_id` is not tested here: metadata is cached
 * per user, so a predicate only ever sees rows of the filter's user.
 */
export function compileMemoryFilter(filter: MemoryFilter): MemoryPredicate {
  const tests: MemoryPredicate[] = [];
  // A time window first: it is the test that rejects most rows when a query names a day or a week.
  if (filter.after !== undefined) {
    const after = instant(filter.after, 'after');
    tests.push((m) => m.time_ms >= after);
  }
  if (filter.before !== undefined) {
    const before = instant(filter.before, 'before');
    tests.push((m) => m.time_ms <= before);
  }
  const state = filter.state ?? 'live';
  if (state === 'live') tests.push((m) => !m.deleted);
  else if (state === 'deleted') tests.push((m) => m.deleted);
  if (!filter.include_superseded) tests.push((m) => !m.superseded);
  if (filter.project_id !== undefined) {
    const project = filter.project_id;
    tests.push((m) => m.project_id === null || m.project_id === project);
  }
  if (filter.scopes) {
    // A handful of scopes at most (seed 001 has seven layers): a scan beats building keys per candidate.
    const scopes = filter.scopes;
    tests.push((m) => scopes.some((scope) => scope.layer === m.layer && scope.scope_id === m.scope_id));
  }
  if (filter.categories) tests.push(memberOf(filter.categories, (m) => m.category));
  if (filter.subtypes) tests.push(memberOf(filter.subtypes, (m) => m.subtype));
  if (filter.source_types) tests.push(memberOf(filter.source_types, (m) => m.source_type));
  if (filter.entities) tests.push(anyOf(filter.entities, (m) => m.entities));
  if (filter.tags) tests.push(anyOf(filter.tags, (m) => m.tags));
  if (filter.min_confidence !== undefined) {
    const min = filter.min_confidence;
    tests.push((m) => m.confidence >= min);
  }
  if (filter.pinned !== undefined) {
    const pinned = filter.pinned;
    tests.push((m) => m.pinned === pinned);
  }
  return (meta) => {
    for (const test of tests) if (!test(meta)) return false;
    return true;
  };
}

function memberOf(values: readonly string[], field: (m: MemoryMeta) => string): MemoryPredicate {
  const allowed = new Set(values);
  return (m) => allowed.has(field(m));
}

function anyOf(values: readonly string[], field: (m: MemoryMeta) => readonly string[]): MemoryPredicate {
  const wanted = new Set(values);
  return (m) => field(m).some((value) => wanted.has(value));
}

function instant(value: string, field: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new MemoryError('INVALID_INPUT', `Filter ${field} must be an ISO-8601 timestamp; got "${value}".`, {
      details: { field },
    });
  }
  return ms;
}
