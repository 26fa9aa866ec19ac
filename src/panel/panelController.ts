import { MemoryError } from '../core/domain/errors.ts';
import { TAXONOMY } from '../core/domain/taxonomy.ts';
import type {
  PanelError,
  PanelErrorCode,
  PanelErrorEntry,
  PanelInit,
  PanelMethod,
  PanelNotification,
  ParamsOf,
  ResponseMessage,
  ResultOf,
} from '../shared/panelProtocol.ts';
import { EDITOR_ACTIONS, SCOPES } from '../shared/panelSchemas.ts';
import { type Disposable, DEFAULT_POLL_MS, watchChanges } from './changeWatcher.ts';
import {
  editSearchKeys,
  forEachMemory,
  getMemory,
  listMemories,
  promoteFromPanel,
  promotionTargets,
  searchMemories,
  updateMemory,
} from './memoryRequests.ts';
import { overview } from './overviewRequest.ts';
import type { PanelDeps } from './panelDeps.ts';
import { type ScopeContext, SOURCE_TYPES, normalisePanelFilter } from './panelFilter.ts';
import { parsePanelParams } from './panelParams.ts';
import { RecallActivity } from './recallActivity.ts';
import { RecentRecalls } from './recentRecalls.ts';
import { resolveSessionId, withSession, workingView } from './workingRequests.ts';

const MAX_ERRORS = 20;

/** One handler per method, typed by the protocol: a handler answering the wrong shape does not compile. */
export type PanelHandlers = { [M in PanelMethod]: (params: ParamsOf<M>) => Promise<ResultOf<M>> };

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
  private readonly handlers: PanelHandlers;

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
        listMemories(deps, await this.scope(), { ...p, filter: normalisePanelFilter(p.filter) }),
      'memory/search': async (p) =>
        searchMemories(deps, await this.scope(), { ...p, filter: normalisePanelFilter(p.filter) }),
      'memory/get': async (p) => getMemory(deps, await this.scope(), p.memory_id),
      'memory/update': async (p) => updateMemory(deps, p),
      'memory/searchKeys': async (p) => editSearchKeys(deps, p),
      // One call and one store write for the whole selection, however many memories it holds.
      'memory/forget': async (p) => {
        const result = await deps.core.forgetMemory({ memory_ids: [...p.memory_ids], user_id: deps.userId() });
        return { memory_ids: result.forgotten };
      },
      'memory/restore': async (p) => {
        const restored = await deps.core.restoreMemories(deps.userId(), p.memory_ids);
        return { memory_ids: restored.map((memory) => memory.memory_id) };
      },
      // The schema refuses a purge without confirm: true (CONFIRMATION_REQUIRED) before it gets here.
      'memory/purge': async (p) =>
        forEachMemory(p.memory_ids, (id) =>
          deps.core.forgetMemory({ memory_id: id, user_id: deps.userId(), hard_delete: true }),
        ),
      'memory/promote': async (p) => promoteFromPanel(deps, await this.scope(), p.memory_id, p.to_layer),
      'working/state': async () => workingView(deps),
      'working/pin': async (p) => {
        await withSession(deps, (session_id, user_id) =>
          deps.core.pinWorkingItem({ session_id, user_id, item_id: p.item_id, pinned: p.pinned }),
        );
        return workingView(deps);
      },
      'working/evict': async (p) => {
        await withSession(deps, (session_id, user_id) =>
          deps.core.evictFromWorkingMemory({ session_id, user_id, item_id: p.item_id }),
        );
        return workingView(deps);
      },
      'working/checkpoint': async () => {
        const result = await withSession(deps, (session_id, user_id) =>
          deps.core.checkpointWorkingMemory({ session_id, user_id, force: true }),
        );
        const message = `Checkpoint saved ${result.memories_created} new and updated ${result.memories_updated} memories; freed ${result.working_memory_tokens_freed} tokens.`;
        return { ...(await workingView(deps)), message };
      },
      'working/clear': async () => {
        const result = await withSession(deps, (session_id, user_id) =>
          deps.core.clearWorkingMemory({ session_id, user_id, checkpoint_first: true }),
        );
        const message = `Cleared ${result.items_removed} items; ${result.memories_preserved} saved to long-term memory first.`;
        return { ...(await workingView(deps)), message };
      },
      'overview/get': async () => overview(deps, this.activity, this.recalls, this.errors),
      'context/preview': async (p) => {
        const sessionId = await resolveSessionId(deps);
        // A preview shows what the agent would get; it must not count as the agent reading memories.
        // Before any session exists (a browser panel, a fresh store) it previews long-term memory alone.
        return deps.core.getRelevantContext(
          {
            session_id: sessionId ?? 'panel-preview',
            user_id: deps.userId(),
            query: p.query,
            token_budget: p.token_budget,
          },
          { logAccess: false, allowMissingSession: sessionId === null },
        );
      },
      'editor/selection': async () => ({ text: deps.selection?.() || null }),
      'editor/run': async (p) => {
        if (!deps.runEditorAction)
          throw new MemoryError(
            'INVALID_INPUT',
            `editor/run: ${p.action} needs an editor; this panel runs in a browser.`,
          );
        if (p.action === 'go_to_code' && p.memory_id === undefined)
          throw new MemoryError('INVALID_INPUT', 'editor/run: go_to_code needs memory_id.', {
            details: { field: 'memory_id' },
          });
        await deps.runEditorAction(p.action, p.memory_id);
        return { done: true };
      },
    };
  }

  /** Validates one raw message from a panel and answers it; never throws. */
  async handle(raw: unknown): Promise<ResponseMessage> {
    if (typeof raw !== 'object' || raw === null)
      return this.reject(-1, 'INVALID_REQUEST', 'A panel message must be an object.');
    const message = raw as { kind?: unknown; id?: unknown; method?: unknown; params?: unknown };
    if (message.kind !== 'request' || typeof message.id !== 'number' || !Number.isInteger(message.id)) {
      return this.reject(
        -1,
        'INVALID_REQUEST',
        'A panel message must be { kind: "request", id: <integer>, method, params }.',
      );
    }
    const id = message.id;
    if (typeof message.method !== 'string' || !Object.hasOwn(this.handlers, message.method)) {
      return this.reject(id, 'UNKNOWN_METHOD', `Unknown panel method ${JSON.stringify(message.method)}.`);
    }
    const method = message.method as PanelMethod;
    try {
      const result = await this.answer(method, message.params);
      return { kind: 'response', id, ok: true, result };
    } catch (error) {
      const panelError = toPanelError(error);
      this.deps.log(`[panel] ${method} failed: ${panelError.code}: ${panelError.message}`);
      return this.reject(id, panelError.code, panelError.message);
    }
  }

  /** Validates the params with the method's schema, then runs its handler with them. */
  private answer<M extends PanelMethod>(method: M, params: unknown): Promise<ResultOf<M>> {
    const handler = this.handlers[method] as (params: ParamsOf<M>) => Promise<ResultOf<M>>;
    return handler(parsePanelParams(method, params));
  }

  /** Subscribes to change notifications; the store is polled only while at least one panel watches. */
  watch(listener: (notification: PanelNotification) => void): Disposable {
    this.listeners.add(listener);
    this.watcher ??= watchChanges(
      this.deps.core,
      this.deps.userId,
      (notification) => this.broadcast(notification),
      this.deps.log,
      this.pollMs,
    );
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

  private async init(): Promise<PanelInit> {
    const scope = await this.scope();
    return {
      user_id: this.deps.userId(),
      user_label: this.deps.userLabel?.() ?? this.deps.userId(),
      user_source: this.deps.userSource?.() ?? null,
      store: this.deps.storeDescription?.() ?? null,
      session_id: scope.sessionId,
      project_id: scope.projectId,
      taxonomy: Object.fromEntries(Object.entries(TAXONOMY).map(([category, subtypes]) => [category, [...subtypes]])),
      source_types: [...SOURCE_TYPES],
      scopes: SCOPES.filter((scopeName) =>
        scopeName === 'project' || scopeName === 'shared'
          ? scope.projectId !== null
          : scopeName === 'session'
            ? scope.sessionId !== null
            : true,
      ),
      promotion_targets: promotionTargets(this.deps, scope),
      host: this.deps.host,
      editor_actions: this.deps.runEditorAction ? [...EDITOR_ACTIONS] : [],
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
