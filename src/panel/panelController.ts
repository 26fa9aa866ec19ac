import { MemoryError } from '../core/domain/errors.ts';
import { TAXONOMY } from '../core/domain/taxonomy.ts';
import { LIMITS } from '../core/validation.ts';
import type { PanelError, PanelErrorCode, PanelErrorEntry, PanelMethod, PanelNotification, ResponseMessage } from '../shared/panelProtocol.ts';
import { type Disposable, DEFAULT_POLL_MS, watchChanges } from './changeWatcher.ts';
import { editSearchKeys, forEachMemory, getMemory, listMemories, promoteFromPanel, promotionTargets, searchMemories, updateMemory } from './memoryRequests.ts';
import { overview } from './overviewRequest.ts';
import type { PanelDeps } from './panelDeps.ts';
import { type ScopeContext, SCOPES, SOURCE_TYPES, readPanelFilter } from './panelFilter.ts';
import { ParamReader } from './paramReader.ts';
import { RecallActivity } from './recallActivity.ts';
import { RecentRecalls } from './recentRecalls.ts';
import { resolveSessionId, withSession, workingView } from './workingRequests.ts';

const MAX_PAGE = 1000;
const MAX_ERRORS = 20;
const SORTS = ['recency', 'importance', 'access_count', 'created'] as const;

type Handler = (params: ParamReader) => Promise<unknown>;

/**
 * Answers every panel request against a MemoryCore. Transport-free: the VS Code webview provider
 * and the HTTP routes both feed it raw messages and forward its responses and notifications, so
 * the panel behaves the same in the editor and in a browser.
 */
export class PanelController {
  private readonly deps: PanelDeps;
  private readonly activity = new RecallActivity();
  private readonly recalls = new RecentRecalls();
  private readonly errors: PanelErrorEntry[] = [];
  private readonly listeners = new Set<(notification: PanelNotification) => void>();
  private readonly recallSubscription: Disposable;
  private readonly pollMs: number;
  private watcher: Disposable | null = null;
  private readonly handlers: Record<PanelMethod, Handler>;

  constructor(deps: PanelDeps, options: { pollMs?: number } = {}) {
    this.deps = deps;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.recallSubscription = deps.core.onEvent((event) => {
      if (event.type !== 'recall' || event.user_id !== deps.userId()) return;
      this.activity.record(Date.now());
      this.recalls.record(new Date(), event);
    });
    this.handlers = {
      'panel/ready': async () => this.init(),
      'memory/list': async (p) =>
        listMemories(deps, await this.scope(), {
          filter: readPanelFilter(p.object('filter')),
          sort: p.oneOf('sort', SORTS),
          offset: p.integer('offset', 0, Number.MAX_SAFE_INTEGER),
          limit: p.integer('limit', 0, MAX_PAGE),
        }),
      'memory/search': async (p) =>
        searchMemories(deps, await this.scope(), {
          query: p.string('query'),
          filter: readPanelFilter(p.object('filter')),
          sort: p.oneOf('sort', ['relevance', ...SORTS] as const),
          limit: p.integer('limit', 1, LIMITS.recallLimit),
        }),
      'memory/get': async (p) => getMemory(deps, p.string('memory_id')),
      'memory/update': async (p) => {
        const content = p.optionalString('content');
        const category = p.optionalString('memory_category');
        const subtype = p.optionalString('memory_subtype');
        const importance = p.optionalNumber('importance', 0, 1);
        const tags = p.optionalStringList('tags', LIMITS.tags);
        const pinned = p.optionalBoolean('pinned');
        return updateMemory(deps, {
          memory_id: p.string('memory_id'),
          ...(content !== undefined ? { content } : {}),
          ...(category !== undefined ? { memory_category: category } : {}),
          ...(subtype !== undefined ? { memory_subtype: subtype } : {}),
          ...(importance !== undefined ? { importance } : {}),
          ...(tags !== undefined ? { tags } : {}),
          ...(pinned !== undefined ? { pinned } : {}),
        });
      },
      'memory/searchKeys': async (p) => {
        const add = p.optionalStringList('add', LIMITS.searchKeys);
        const remove = p.optionalStringList('remove', LIMITS.searchKeys);
        return editSearchKeys(deps, { memory_id: p.string('memory_id'), ...(add ? { add } : {}), ...(remove ? { remove } : {}) });
      },
      'memory/forget': async (p) => forEachMemory(p.stringList('memory_ids'), (id) => deps.core.forgetMemory({ memory_id: id, user_id: deps.userId() })),
      'memory/restore': async (p) => forEachMemory(p.stringList('memory_ids'), (id) => deps.core.restoreMemory(deps.userId(), id)),
      'memory/purge': async (p) => {
        if (p.optionalBoolean('confirm') !== true) {
          throw new MemoryError('CONFIRMATION_REQUIRED', 'Deleting permanently needs confirm: true; the panel asks the user first.', { details: { field: 'confirm' } });
        }
        return forEachMemory(p.stringList('memory_ids'), (id) => deps.core.forgetMemory({ memory_id: id, user_id: deps.userId(), hard_delete: true }));
      },
      'memory/promote': async (p) => promoteFromPanel(deps, await this.scope(), p.string('memory_id'), p.string('to_layer')),
      'working/state': async () => workingView(deps),
      'working/pin': async (p) => {
        const itemId = p.string('item_id');
        const pinned = p.boolean('pinned');
        await withSession(deps, (session_id, user_id) => deps.core.pinWorkingItem({ session_id, user_id, item_id: itemId, pinned }));
        return workingView(deps);
      },
      'working/evict': async (p) => {
        const itemId = p.string('item_id');
        await withSession(deps, (session_id, user_id) => deps.core.evictFromWorkingMemory({ session_id, user_id, item_id: itemId }));
        return workingView(deps);
      },
      'working/checkpoint': async () => {
        const result = await withSession(deps, (session_id, user_id) => deps.core.checkpointWorkingMemory({ session_id, user_id, force: true }));
        const message = `Checkpoint saved ${result.memories_created} new and updated ${result.memories_updated} memories; freed ${result.working_memory_tokens_freed} tokens.`;
        return { ...(await workingView(deps)), message };
      },
      'working/clear': async () => {
        const result = await withSession(deps, (session_id, user_id) => deps.core.clearWorkingMemory({ session_id, user_id, checkpoint_first: true }));
        const message = `Cleared ${result.items_removed} items; ${result.memories_preserved} saved to long-term memory first.`;
        return { ...(await workingView(deps)), message };
      },
      'overview/get': async () => overview(deps, this.activity, this.recalls, this.errors),
      'context/preview': async (p) => {
        const query = p.string('query');
        const budget = p.integer('token_budget', 1, LIMITS.tokenBudget);
        const sessionId = await resolveSessionId(deps);
        // A preview shows what the agent would get; it must not count as the agent reading memories.
        // Before any session exists (a browser panel, a fresh store) it previews long-term memory alone.
        return deps.core.getRelevantContext(
          { session_id: sessionId ?? 'panel-preview', user_id: deps.userId(), query, token_budget: budget },
          { logAccess: false, allowMissingSession: sessionId === null },
        );
      },
      'editor/selection': async () => ({ text: deps.selection?.() || null }),
    };
  }

  /** Validates one raw message from a panel and answers it; never throws. */
  async handle(raw: unknown): Promise<ResponseMessage> {
    if (typeof raw !== 'object' || raw === null) return this.reject(-1, 'INVALID_REQUEST', 'A panel message must be an object.');
    const message = raw as { kind?: unknown; id?: unknown; method?: unknown; params?: unknown };
    if (message.kind !== 'request' || typeof message.id !== 'number' || !Number.isInteger(message.id)) {
      return this.reject(-1, 'INVALID_REQUEST', 'A panel message must be { kind: "request", id: <integer>, method, params }.');
    }
    const id = message.id;
    if (typeof message.method !== 'string' || !Object.hasOwn(this.handlers, message.method)) {
      return this.reject(id, 'UNKNOWN_METHOD', `Unknown panel method ${JSON.stringify(message.method)}.`);
    }
    const method = message.method as PanelMethod;
    try {
      const result = await this.handlers[method](new ParamReader(method, message.params));
      return { kind: 'response', id, ok: true, result };
    } catch (error) {
      const panelError = toPanelError(error);
      this.deps.log(`[panel] ${method} failed: ${panelError.code}: ${panelError.message}`);
      return this.reject(id, panelError.code, panelError.message);
    }
  }

  /** Subscribes to change notifications; the store is polled only while at least one panel watches. */
  watch(listener: (notification: PanelNotification) => void): Disposable {
    this.listeners.add(listener);
    this.watcher ??= watchChanges(this.deps.core, this.deps.userId, (notification) => this.broadcast(notification), this.deps.log, this.pollMs);
    return {
      dispose: () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0) {
          this.watcher?.dispose();
          this.watcher = null;
        }
      },
    };
  }

  dispose(): void {
    this.recallSubscription.dispose();
    this.watcher?.dispose();
    this.watcher = null;
    this.listeners.clear();
  }

  private broadcast(notification: PanelNotification): void {
    for (const listener of this.listeners) listener(notification);
  }

  private async init() {
    const scope = await this.scope();
    return {
      user_id: this.deps.userId(),
      user_label: this.deps.userLabel?.() ?? this.deps.userId(),
      session_id: scope.sessionId,
      project_id: scope.projectId,
      taxonomy: Object.fromEntries(Object.entries(TAXONOMY).map(([category, subtypes]) => [category, [...subtypes]])),
      source_types: [...SOURCE_TYPES],
      scopes: SCOPES.filter((scopeName) => (scopeName === 'project' ? scope.projectId !== null : scopeName === 'session' ? scope.sessionId !== null : true)),
      promotion_targets: promotionTargets(this.deps, scope),
      host: this.deps.host,
    };
  }

  private async scope(): Promise<ScopeContext> {
    const sessionId = await resolveSessionId(this.deps);
    const session = sessionId ? await this.deps.core.getSession(sessionId) : null;
    return { sessionId, projectId: session?.project_id ?? this.deps.core.defaultProjectId ?? null };
  }

  private reject(id: number, code: PanelErrorCode, message: string): ResponseMessage {
    this.errors.unshift({ at: new Date().toISOString(), code, message });
    this.errors.length = Math.min(this.errors.length, MAX_ERRORS);
    return { kind: 'response', id, ok: false, error: { code, message } };
  }
}

function toPanelError(error: unknown): PanelError {
  if (MemoryError.is(error)) return { code: error.code, message: error.message };
  // Anything else is a bug or an environment failure; the panel shows it rather than a blank pane.
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
}
