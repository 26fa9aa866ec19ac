import { MemoryError } from '../core/domain/errors.ts';
import { type MemoryLayer, SCOPE_IDENTIFIER } from '../core/domain/layers.ts';
import type { PromoteMemoryOutput } from '../core/api/layersApi.ts';
import type { MemoryRecord } from '../core/domain/records.ts';
import type { MemoryCategory } from '../core/domain/taxonomy.ts';
import type { ListQuery } from '../core/ports/memoryStore.ts';
import { LIMITS } from '../core/validation.ts';
import type {
  ListParams,
  MemoryDetail,
  MemoryPage,
  MemorySummary,
  PanelFilter,
  PromotionTarget,
  SearchKeysParams,
  SearchParams,
  SearchResult,
  UpdateParams,
} from '../shared/panelProtocol.ts';
import type { PanelDeps } from './panelDeps.ts';
import { enrichmentStateOf } from '../core/api/searchKeysApi.ts';
import { searchKeyViews } from '../core/api/searchKeysApi.ts';
import { requireProject, type ScopeContext, toMemoryFilter } from './panelFilter.ts';
import { settingId } from '../core/domain/settingIds.ts';
import { sharedPartition } from '../core/api/layerPartitions.ts';

/** Rows fetched per step when the session scope has to be filtered here rather than in the store. */
const SESSION_SCAN_CHUNK = 5000;
const SUMMARY_CHARS = 160;

export async function listMemories(deps: PanelDeps, scope: ScopeContext, params: ListParams): Promise<MemoryPage> {
  const userId = deps.userId();
  const query: ListQuery = {
    filter: toMemoryFilter(userId, params.filter, scope),
    sort: params.sort,
    offset: params.offset,
    limit: params.limit,
  };
  if (params.filter.scope === 'shared') {
    // The project layer's own partition (seed 001), not the user's.
    const { user_id: _user, ...filter } = query.filter;
    const page = await deps.core.listProjectLayer(requireProject(scope), { ...query, filter });
    return { items: page.items, total: page.total, offset: params.offset };
  }
  if (params.filter.scope !== 'session') {
    const page = await deps.core.listMemories(query);
    return { items: page.items, total: page.total, offset: params.offset };
  }
  // The store has no source_session filter, so the session scope scans the filtered listing in order.
  const sessionId = requireSession(scope);
  const matched: MemoryRecord[] = [];
  for (let offset = 0; ; offset += SESSION_SCAN_CHUNK) {
    const chunk = await deps.core.listMemories({ ...query, offset, limit: SESSION_SCAN_CHUNK });
    matched.push(...chunk.items.filter((memory) => memory.source_session === sessionId));
    if (offset + SESSION_SCAN_CHUNK >= chunk.total) break;
  }
  return {
    items: matched.slice(params.offset, params.offset + params.limit),
    total: matched.length,
    offset: params.offset,
  };
}

export async function searchMemories(
  deps: PanelDeps,
  scope: ScopeContext,
  params: SearchParams,
): Promise<SearchResult> {
  const started = performance.now();
  const userId = deps.userId();
  const filter = toMemoryFilter(userId, params.filter, scope);
  if (params.filter.view === 'trash')
    throw new MemoryError('INVALID_INPUT', 'Search covers live memories; clear the search box to browse the trash.', {
      details: { field: 'view' },
    });
  const { memories, retrieval_breakdown } = await deps.core.recall(
    {
      user_id: userId,
      query: params.query,
      limit: Math.min(params.limit, LIMITS.recallLimit),
      ...(filter.categories ? { memory_categories: [...filter.categories] as MemoryCategory[] } : {}),
      ...(filter.subtypes ? { memory_subtypes: [...filter.subtypes] } : {}),
      ...(filter.entities ? { entities: [...filter.entities] } : {}),
      ...(filter.tags ? { tags: [...filter.tags] } : {}),
      ...(filter.after || filter.before
        ? {
            time_range: {
              ...(filter.after ? { after: filter.after } : {}),
              ...(filter.before ? { before: filter.before } : {}),
            },
          }
        : {}),
      // Without a project filter recall applies the core's default project, as it does for the agent.
      ...(filter.project_id !== undefined ? { project_id: filter.project_id } : {}),
      // The panel browses the user's own memories, as its listing does; the shared scope, the project layer.
      layers: params.filter.scope === 'shared' ? ['project'] : personalLayers(deps, scope),
      ...(params.filter.scope === 'shared' && scope.projectId ? { project_id: scope.projectId } : {}),
      ...(scope.sessionId ? { session_id: scope.sessionId } : {}),
      ...(deps.core.layerDefaults.agent_id ? { agent_id: deps.core.layerDefaults.agent_id } : {}),
      include_low_confidence: true,
    },
    // Browsing in the panel is not the agent using a memory: it must not bump access counts.
    { logAccess: false, tool: 'panel_search' },
  );
  let items = memories.filter((memory) => matchesRecallOnlyFilters(memory, params.filter));
  if (params.filter.scope === 'session') {
    const sessionId = requireSession(scope);
    const records = await deps.core.getMemories(
      userId,
      items.map((memory) => memory.memory_id),
    );
    const inSession = new Set(
      records.filter((record) => record.source_session === sessionId).map((record) => record.memory_id),
    );
    items = items.filter((memory) => inSession.has(memory.memory_id));
  }
  if (params.sort !== 'relevance') items = [...items].sort(SEARCH_SORTS[params.sort]);
  return { items, breakdown: retrieval_breakdown, elapsed_ms: Math.round(performance.now() - started) };
}

function personalLayers(deps: PanelDeps, scope: ScopeContext): MemoryLayer[] {
  return [
    ...(deps.core.layerDefaults.agent_id ? ['agent' as const] : []),
    'user',
    ...(scope.sessionId ? ['session' as const] : []),
  ];
}

/** Where this panel may promote to: the project it works in and the layers the host configured. */
export function promotionTargets(deps: PanelDeps, scope: ScopeContext): PromotionTarget[] {
  const layers = deps.core.layerDefaults;
  const targets: PromotionTarget[] = [];
  if (scope.projectId)
    targets.push({ layer: 'project', scope_id: scope.projectId, label: `Project ${scope.projectId}` });
  if (layers.team_id) targets.push({ layer: 'team', scope_id: layers.team_id, label: `Team ${layers.team_id}` });
  if (layers.org_id) targets.push({ layer: 'org', scope_id: layers.org_id, label: `Org ${layers.org_id}` });
  if (layers.company_id)
    targets.push({ layer: 'company', scope_id: layers.company_id, label: `Company ${layers.company_id}` });
  if (layers.agent_id) targets.push({ layer: 'agent', scope_id: layers.agent_id, label: `Agent ${layers.agent_id}` });
  return targets;
}

export async function promoteFromPanel(
  deps: PanelDeps,
  scope: ScopeContext,
  memoryId: string,
  toLayer: string,
): Promise<PromoteMemoryOutput> {
  const target = promotionTargets(deps, scope).find((candidate) => candidate.layer === toLayer);
  if (!target) {
    throw new MemoryError(
      'INVALID_LAYER',
      `This panel cannot promote to the ${toLayer} layer; it offers ${
        promotionTargets(deps, scope)
          .map((t) => t.layer)
          .join(', ') || `none (set a project or the ${settingId('layers')} settings)`
      }.`,
      {
        details: { field: 'to_layer' },
      },
    );
  }
  return deps.core.promoteMemory({
    user_id: deps.userId(),
    memory_id: memoryId,
    to_layer: target.layer,
    [SCOPE_IDENTIFIER[target.layer]]: target.scope_id,
  });
}

/** Recall does not filter on pinned or source; the panel does, on the returned results. */
function matchesRecallOnlyFilters(memory: { pinned: boolean; source_type: string }, filter: PanelFilter): boolean {
  if (filter.pinned !== undefined && memory.pinned !== filter.pinned) return false;
  if (filter.source_types && filter.source_types.length > 0 && !filter.source_types.includes(memory.source_type))
    return false;
  return true;
}

type Recalled = SearchResult['items'][number];
const SEARCH_SORTS: Record<Exclude<SearchParams['sort'], 'relevance'>, (a: Recalled, b: Recalled) => number> = {
  recency: (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
  created: (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
  importance: (a, b) => b.importance - a.importance,
  access_count: (a, b) => b.access_count - a.access_count,
};

export async function getMemory(deps: PanelDeps, scope: ScopeContext, memoryId: string): Promise<MemoryDetail> {
  const own = deps.userId();
  const [mine] = await deps.core.getMemories(own, [memoryId]);
  // Not the user's: a memory of the project layer the shared scope lists (shown, changed through its file or an agent).
  const userId = mine || !scope.projectId ? own : sharedPartition('project', scope.projectId);
  const memory = mine ?? (await requireMemory(deps, userId, memoryId));
  // Walk both directions of the supersedes chain; the seen set guards against a corrupt cycle.
  const seen = new Set([memory.memory_id]);
  const before: MemoryRecord[] = [];
  for (let id = memory.supersedes; id && !seen.has(id);) {
    seen.add(id);
    const [older] = await deps.core.getMemories(userId, [id]);
    if (!older) break;
    before.unshift(older);
    id = older.supersedes;
  }
  const after: MemoryRecord[] = [];
  for (let id = memory.superseded_by; id && !seen.has(id);) {
    seen.add(id);
    const [newer] = await deps.core.getMemories(userId, [id]);
    if (!newer) break;
    after.push(newer);
    id = newer.superseded_by;
  }
  const relatedIds = memory.related_memories.filter((id) => !seen.has(id));
  const related = relatedIds.length > 0 ? await deps.core.getMemories(userId, relatedIds) : [];
  const chain = before.length + after.length > 0 ? [...before, memory, ...after].map(summarise) : [];
  return {
    memory,
    chain,
    related: related.map(summarise),
    search_keys: searchKeyViews(memory.metadata, memory.created_at),
    enrichment: enrichmentStateOf(memory.metadata),
  };
}

export async function editSearchKeys(deps: PanelDeps, params: SearchKeysParams): Promise<MemoryDetail> {
  await deps.core.editSearchKeys({
    user_id: deps.userId(),
    memory_id: params.memory_id,
    ...(params.add ? { add: params.add } : {}),
    ...(params.remove ? { remove: params.remove } : {}),
  });
  // The user's own memory (the edit above was made in the user's partition).
  return getMemory(deps, { projectId: null, sessionId: null }, params.memory_id);
}

export async function updateMemory(deps: PanelDeps, params: UpdateParams): Promise<MemoryRecord> {
  const { memory_id, memory_category, ...rest } = params;
  const result = await deps.core.updateMemory({
    memory_id,
    user_id: deps.userId(),
    ...rest,
    ...(memory_category !== undefined ? { memory_category: memory_category as MemoryCategory } : {}),
  });
  return result.memory;
}

/** Applies `operation` to each id; stops at the first failure so the error names the memory it hit. */
export async function forEachMemory(
  ids: readonly string[],
  operation: (id: string) => Promise<unknown>,
): Promise<{ memory_ids: string[] }> {
  const done: string[] = [];
  for (const id of new Set(ids)) {
    await operation(id);
    done.push(id);
  }
  return { memory_ids: done };
}

async function requireMemory(deps: PanelDeps, userId: string, memoryId: string): Promise<MemoryRecord> {
  const [memory] = await deps.core.getMemories(userId, [memoryId]);
  if (!memory)
    throw new MemoryError(
      'MEMORY_NOT_FOUND',
      `Memory ${memoryId} does not exist (it may have been deleted permanently).`,
      { details: { memory_id: memoryId } },
    );
  return memory;
}

function requireSession(scope: ScopeContext): string {
  if (!scope.sessionId)
    throw new MemoryError(
      'SESSION_NOT_FOUND',
      'The session scope needs an active working-memory session; none is open.',
      { details: { field: 'scope' } },
    );
  return scope.sessionId;
}

function summarise(memory: MemoryRecord): MemorySummary {
  return {
    memory_id: memory.memory_id,
    content: memory.content.length > SUMMARY_CHARS ? `${memory.content.slice(0, SUMMARY_CHARS)}…` : memory.content,
    memory_category: memory.memory_category,
    memory_subtype: memory.memory_subtype,
    deleted: memory.deleted_at !== null,
  };
}
