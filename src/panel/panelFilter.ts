import { MemoryError } from '../core/domain/errors.ts';
import type { MemoryCategory } from '../core/domain/taxonomy.ts';
import { isMemoryCategory } from '../core/domain/taxonomy.ts';
import type { MemoryFilter } from '../core/ports/memoryStore.ts';
import type { PanelFilter, Scope } from '../shared/panelProtocol.ts';
import { STALE_TAG } from '../core/anchors/anchorUpdates.ts';

export const SOURCE_TYPES = [
  'explicit',
  'conversation',
  'editor',
  'extraction',
  'inferred',
  'observed',
  'working_memory',
] as const;

export interface ScopeContext {
  projectId: string | null;
  sessionId: string | null;
}

/**
 * The checks a schema cannot make (a known category, a real date, no stale-with-tags), and the
 * panel's day-wide dates widened to timestamps. The shape was checked by the request's schema.
 */
export function normalisePanelFilter(filter: PanelFilter): PanelFilter {
  const normalised: PanelFilter = { ...filter };
  for (const category of filter.categories ?? []) {
    if (!isMemoryCategory(category))
      throw new MemoryError('INVALID_INPUT', `Unknown category "${category}".`, { details: { field: 'categories' } });
  }
  if (filter.stale && filter.tags && filter.tags.length > 0) {
    // Tags match any of them, so the stale-code tag among others would widen the list instead of narrowing it.
    throw new MemoryError('INVALID_INPUT', 'The stale filter cannot be combined with a tags filter.', {
      details: { field: 'stale' },
    });
  }
  // An empty date input means no bound.
  if (filter.after) normalised.after = boundary(filter.after, 'after');
  else delete normalised.after;
  if (filter.before) normalised.before = boundary(filter.before, 'before');
  else delete normalised.before;
  return normalised;
}

/** The store filter for a panel filter; the session scope is applied by the caller (the store cannot). */
export function toMemoryFilter(userId: string, filter: PanelFilter, scope: ScopeContext): MemoryFilter {
  const projectId = projectFilter(filter.scope ?? 'all', scope);
  return {
    user_id: userId,
    ...(projectId !== undefined ? { project_id: projectId } : {}),
    ...(nonEmpty(filter.categories) ? { categories: filter.categories as MemoryCategory[] } : {}),
    ...(nonEmpty(filter.subtypes) ? { subtypes: filter.subtypes } : {}),
    ...(nonEmpty(filter.entities) ? { entities: filter.entities } : {}),
    ...(filter.stale ? { tags: [STALE_TAG] } : nonEmpty(filter.tags) ? { tags: filter.tags } : {}),
    ...(nonEmpty(filter.source_types) ? { source_types: filter.source_types } : {}),
    ...(filter.pinned !== undefined ? { pinned: filter.pinned } : {}),
    ...(filter.after ? { after: filter.after } : {}),
    ...(filter.before ? { before: filter.before } : {}),
    state: filter.view === 'trash' ? 'deleted' : 'live',
  };
}

/**
 * MemoryFilter.project_id admits "this project or no project", so null leaves exactly the
 * user-wide memories. undefined: no project filter.
 */
export function projectFilter(scope: Scope, context: ScopeContext): string | null | undefined {
  switch (scope) {
    case 'all':
    case 'session':
      return undefined;
    case 'user':
      return null;
    case 'shared':
      return undefined;
    case 'project':
      return requireProject(context);
  }
}

export function requireProject(context: ScopeContext): string {
  if (!context.projectId)
    throw new MemoryError('INVALID_INPUT', 'The project scope needs an open project; none is active.', {
      details: { field: 'scope' },
    });
  return context.projectId;
}

/** Dates from the panel's date inputs cover their whole day; full timestamps pass through. */
function boundary(value: string, field: 'after' | 'before'): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const iso = day ? `${value}T${field === 'after' ? '00:00:00.000' : '23:59:59.999'}Z` : value;
  if (Number.isNaN(Date.parse(iso)))
    throw new MemoryError(
      'INVALID_INPUT',
      `${field} must be a date (YYYY-MM-DD) or an ISO timestamp; got "${value}".`,
      { details: { field } },
    );
  return iso;
}

function nonEmpty(list: readonly string[] | undefined): list is readonly string[] {
  return list !== undefined && list.length > 0;
}
