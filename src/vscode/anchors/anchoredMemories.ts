import * as vscode from 'vscode';
import type { AnchorChecker } from '../../core/anchors/anchorChecker.ts';
import { anchorKey, anchorsOf, ANCHORS_FIELD, type CodeAnchor } from '../../core/anchors/anchorModel.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import { followRename, isStale, recheckAnchors, tagsForAnchors } from '../../core/anchors/anchorUpdates.ts';
import type { MemoryLocation } from '../../core/api/longTermApi.ts';
import type { MemoryRecord } from '../../core/domain/records.ts';
import type { MemoryEventListener } from '../../core/memoryEvents.ts';
import type { Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';

const PAGE = 500;
/** Edits arrive keystroke by keystroke on save-heavy setups; one check per burst of file events. */
const SETTLE_MS = 300;

/** One anchor of a memory, where it is now. */
export interface AnchoredEntry {
  memory: MemoryRecord;
  anchor: CodeAnchor;
  path: string;
  lines: { start: number; end: number };
}

/**
 * The window's anchored memories, kept checked against the workspace (issue #18): loaded once,
 * refreshed from the core's memory events, re-checked when files change, are renamed (the anchor is
 * followed) or are deleted. Statuses are stored in the memory (metadata.anchors, and the stale-code
 * tag), so the memory process, the panel and agents see what the editor saw.
 */
export class AnchoredMemories implements vscode.Disposable {
  private readonly host: MemoryHost;
  private readonly log: Log;
  readonly checker: AnchorChecker;
  private readonly memories = new Map<string, MemoryRecord>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly pendingPaths = new Set<string>();
  private settleTimer: NodeJS.Timeout | undefined;
  private loading: Promise<void> | null = null;
  /** Serialises checks so two bursts never write the same memory concurrently. */
  private queue: Promise<void> = Promise.resolve();

  constructor(host: MemoryHost, log: Log, checker: AnchorChecker) {
    this.host = host;
    this.log = log;
    this.checker = checker;
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.disposables.push(
      watcher,
      watcher.onDidChange((uri) => this.touched(uri)),
      watcher.onDidCreate((uri) => this.touched(uri)),
      watcher.onDidDelete((uri) => this.touched(uri)),
      vscode.workspace.onDidRenameFiles((event) => this.enqueue(() => this.followRenames(event.files))),
      host.onDidChange((ready) => {
        if (ready) void this.reload();
      }),
      this.changed,
    );
  }

  /** Loads the anchored memories and checks them all (activation, store switched). */
  reload(): Promise<void> {
    this.loading = this.enqueue(async () => {
      const { core, identity } = await this.host.ready();
      this.memories.clear();
      for (let offset = 0; ; offset += PAGE) {
        const page = await core.listMemories({
          filter: {
            user_id: identity.userId,
            state: 'live',
            ...(identity.scopeProjectId ? { project_id: identity.scopeProjectId } : {}),
          },
          sort: 'created',
          offset,
          limit: PAGE,
        });
        for (const memory of page.items)
          if (anchorsOf(memory.metadata).length > 0) this.memories.set(memory.memory_id, memory);
        if (page.items.length < PAGE) break;
      }
      this.subscribe(core);
      await this.recheck(null);
    });
    // The index lets Remember… anchor symbols its text names. It is built after the first check and
    // outside the queue: on a large workspace it takes seconds, and a memory stored meanwhile must
    // get its check (and its CodeLens) without waiting for it.
    void this.loading
      .then(() => this.checker.warmUp())
      .catch((error: unknown) =>
        this.log.warn(
          `Indexing the workspace's symbols failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    return this.loading;
  }

  /** Resolves once the first load (and its check) is done. */
  async ready(): Promise<void> {
    await (this.loading ?? this.reload());
  }

  /** Every anchor of every memory whose code is now in `path`. */
  at(path: string): AnchoredEntry[] {
    return this.entries().filter((entry) => entry.path === path);
  }

  /** Memories with an anchor whose code changed or is gone. */
  stale(): MemoryRecord[] {
    return [...this.memories.values()].filter((memory) => anchorsOf(memory.metadata).some(isStale));
  }

  get(memoryId: string): MemoryRecord | undefined {
    return this.memories.get(memoryId);
  }

  /** Stores new anchors on a memory (with the stale-code tag in step) and keeps the local copy. */
  async saveAnchors(
    memory: MemoryRecord,
    anchors: readonly CodeAnchor[],
    content?: string,
    expectedVersion?: number,
  ): Promise<MemoryRecord> {
    const { core, identity } = await this.host.ready();
    const result = await core.updateMemory({
      memory_id: memory.memory_id,
      user_id: identity.userId,
      ...locationOf(memory),
      metadata: { [ANCHORS_FIELD]: anchors },
      tags: tagsForAnchors(memory.tags, anchors),
      ...(content !== undefined ? { content } : {}),
      ...(expectedVersion !== undefined ? { expected_version: expectedVersion } : {}),
    });
    this.memories.set(memory.memory_id, result.memory);
    this.changed.fire();
    return result.memory;
  }

  /**
   * Replaces one anchor of a stored memory (Remember Selection's line anchor by the declaration the
   * language server named once it answered). Written as a change of the `anchors` key alone, based on
   * the version just read (a CONFLICT is read again, at most 3 times); nothing is written when the
   * memory was forgotten or its anchor is no longer `from` (someone re-anchored it meanwhile).
   */
  replaceAnchor(memoryId: string, from: CodeAnchor, to: CodeAnchor): Promise<boolean> {
    let replaced = false;
    const work = this.enqueue(async () => {
      const { core, identity } = await this.host.ready();
      for (let attempt = 1; ; attempt++) {
        const [memory] = await core.getMemories(identity.userId, [memoryId]);
        if (!memory || memory.deleted_at) return;
        const anchors = anchorsOf(memory.metadata);
        const index = anchors.findIndex((anchor) => anchorKey(anchor) === anchorKey(from));
        if (index < 0) return;
        const next = anchors.map((anchor, at) => (at === index ? to : anchor));
        try {
          const saved = await this.saveAnchors(memory, next, undefined, memory.version);
          replaced = true;
          // Checked now: the declaration's code can be the lines' code (same fingerprint), which the event would not re-check.
          await this.checkMemories([saved]);
          return;
        } catch (error) {
          if (!(error instanceof MemoryError && error.code === 'CONFLICT') || attempt >= 3) throw error;
        }
      }
    });
    return work.then(() => replaced);
  }

  dispose(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    for (const disposable of this.disposables) disposable.dispose();
  }

  private entries(): AnchoredEntry[] {
    return [...this.memories.values()].flatMap((memory) =>
      anchorsOf(memory.metadata).map((anchor) => ({
        memory,
        anchor,
        path: anchor.current?.path ?? anchor.path,
        lines: anchor.current?.lines ?? anchor.lines,
      })),
    );
  }

  private subscribed: { dispose(): void } | null = null;
  private subscribe(core: { onEvent(listener: MemoryEventListener): { dispose(): void } }): void {
    this.subscribed?.dispose();
    this.subscribed = core.onEvent((event) => {
      if (event.type !== 'memory') return;
      void this.enqueue(() => this.refreshMemories(event.memory_ids)).catch((error: unknown) =>
        this.log.error('Cannot refresh anchored memories', error),
      );
    });
    this.disposables.push({ dispose: () => this.subscribed?.dispose() });
  }

  /** New or edited memories (an agent stored one with anchors, the panel forgot one): re-read them. */
  private async refreshMemories(ids: readonly string[]): Promise<void> {
    const { core, identity } = await this.host.ready();
    const found = new Map((await core.getMemories(identity.userId, ids)).map((memory) => [memory.memory_id, memory]));
    const fresh: MemoryRecord[] = [];
    // Only anchored memories change a CodeLens: other memories' events must not make every editor ask again.
    let anchoredChanged = false;
    for (const id of ids) {
      const memory = found.get(id);
      if (!memory || memory.deleted_at || anchorsOf(memory.metadata).length === 0) {
        if (this.memories.delete(id)) anchoredChanged = true;
        continue;
      }
      const known = this.memories.get(id);
      this.memories.set(id, memory);
      anchoredChanged = true;
      // Our own status writes come back as events too; only memories with new anchors need a check.
      if (
        !known ||
        JSON.stringify(anchorsOf(known.metadata).map((anchor) => anchor.fingerprint)) !==
          JSON.stringify(anchorsOf(memory.metadata).map((anchor) => anchor.fingerprint))
      )
        fresh.push(memory);
    }
    if (fresh.length > 0) await this.checkMemories(fresh);
    if (anchoredChanged) this.changed.fire();
  }

  private touched(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    this.pendingPaths.add(vscode.workspace.asRelativePath(uri, false));
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      const paths = [...this.pendingPaths];
      this.pendingPaths.clear();
      void this.enqueue(() => this.recheck(paths));
    }, SETTLE_MS);
  }

  /** Re-checks the memories anchored in `paths` (and every gone or moved one, which a new file may explain); all when null. */
  private async recheck(paths: readonly string[] | null): Promise<void> {
    if (paths) for (const path of paths) this.checker.invalidate(path);
    const touched = paths ? new Set(paths) : null;
    const due = [...this.memories.values()].filter(
      (memory) =>
        !touched ||
        anchorsOf(memory.metadata).some(
          (anchor) =>
            touched.has(anchor.path) ||
            (anchor.current && touched.has(anchor.current.path)) ||
            anchor.status === 'gone' ||
            anchor.status === 'moved',
        ),
    );
    await this.checkMemories(due);
  }

  private async checkMemories(memories: readonly MemoryRecord[]): Promise<void> {
    const at = new Date().toISOString();
    let any = false;
    for (const memory of memories) {
      const { anchors, changed } = await recheckAnchors(anchorsOf(memory.metadata), this.checker, at);
      if (!changed) continue;
      await this.saveAnchors(memory, anchors);
      any = true;
    }
    if (any) this.log.info(`Anchored memories re-checked: ${this.stale().length} stale.`);
  }

  private async followRenames(files: ReadonlyArray<{ oldUri: vscode.Uri; newUri: vscode.Uri }>): Promise<void> {
    const renamed = files
      .filter((file) => file.oldUri.scheme === 'file')
      .map(
        (file) =>
          [
            vscode.workspace.asRelativePath(file.oldUri, false),
            vscode.workspace.asRelativePath(file.newUri, false),
          ] as const,
      );
    const followed: MemoryRecord[] = [];
    for (const memory of this.memories.values()) {
      let anchors = anchorsOf(memory.metadata);
      let changed = false;
      for (const [from, to] of renamed) {
        const result = followRename(anchors, from, to);
        anchors = result.anchors;
        changed ||= result.changed;
      }
      if (changed) followed.push({ ...memory, metadata: { ...memory.metadata, [ANCHORS_FIELD]: anchors } });
    }
    for (const [from, to] of renamed) {
      this.checker.invalidate(from);
      this.checker.invalidate(to);
    }
    for (const memory of followed) {
      const { anchors } = await recheckAnchors(anchorsOf(memory.metadata), this.checker, new Date().toISOString());
      await this.saveAnchors(memory, anchors);
    }
    // Logged because a delete and a create can end in the same status (a symbol found again by search): this tells them apart.
    if (followed.length > 0)
      this.log.info(
        `Followed ${renamed.map(([from, to]) => `${from} → ${to}`).join(', ')}: ${followed.length} anchored ${followed.length === 1 ? 'memory' : 'memories'}.`,
      );
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work);
    // A failed check is logged; the next file event starts a new one.
    this.queue = next.catch((error: unknown) => this.log.error('Anchor check failed', error));
    return next;
  }
}

/** The layer scope update_memory needs to reach a shared-layer memory. */
function locationOf(memory: MemoryRecord): MemoryLocation {
  switch (memory.layer) {
    case 'project':
      return { layer: 'project', project_id: memory.scope_id };
    case 'team':
      return { layer: 'team', team_id: memory.scope_id };
    case 'org':
      return { layer: 'org', org_id: memory.scope_id };
    case 'company':
      return { layer: 'company', company_id: memory.scope_id };
    default:
      return {};
  }
}
