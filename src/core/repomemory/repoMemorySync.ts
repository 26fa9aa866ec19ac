import type { CoreDeps } from '../coreDeps.ts';
import type { AnchorChecker } from '../anchors/anchorChecker.ts';
import { ANCHORS_FIELD, anchorsOf, type CodeAnchor } from '../anchors/anchorModel.ts';
import { withAnchorEntities } from '../anchors/storeAnchors.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord, StoredEmbedding } from '../domain/records.ts';
import { REPOSITORY_FIELD, type RepositoryOrigin, repositoryOriginOf } from '../domain/repositoryOrigin.ts';
import { extractEntities, normaliseEntities } from '../entities/extractEntities.ts';
import { FACT_FIELD, factOfMemory } from '../facts/factModel.ts';
import { sharedPartition } from '../layers/layerScope.ts';
import type { FileProvenance, RepoMemoryFiles } from '../ports/repoMemoryFiles.ts';
import { sha256Hex } from '../util/sha256.ts';
import { LIMITS } from '../validation.ts';
import type { MemoryFile, MemoryFileDiagnostic, MemoryFileProblem } from './memoryFile.ts';
import { type AgentsFileResult, type AgentsFileTarget, updateAgentsFile } from './agentsFile.ts';
import { anchorInputOf, fileOfMemory } from './memoryFileMapping.ts';
import { parseMemoryFile, serializeMemoryFile } from './memoryFileFormat.ts';
import { memoryFileName } from './memoryFileName.ts';
import { type FileSide, planSync, type StoreSide, type SyncAction, type SyncReason } from './syncPlan.ts';

/**
 * Keeps a project's memories and the repository's `.memory/` folder in step (issue #34): reads
 * both sides, lets planSync decide, and carries the decisions out — files through the port, the
 * store through its change intents (changeMemory, forgetMemories, restoreMemories; a file new to
 * this store is inserted under its own id, so every developer's copy has the same one). Only the
 * project layer of one project is ever read or written. Runs one pass at a time; a pass asked for
 * while one runs is queued once.
 */

export interface RepoMemorySyncOptions {
  projectId: string;
  /** How often another process's writes to the store are looked for (default 3 s; 0: never). */
  pollMs?: number;
  /** How long memory events are gathered before a pass (default 200 ms). */
  debounceMs?: number;
  /** Also keep this instructions file's marked section in step with the pinned project memories. */
  agentsFile?: AgentsFileTarget;
  /** Where the files' anchors are resolved: the shared workspace's code (default: the core's workspace, if any). */
  anchors?: AnchorChecker | null;
}

export interface RepoSyncResolution {
  kind: Exclude<SyncAction['kind'], 'report'>;
  memory_id: string;
  path: string;
  reason: SyncReason;
}

export interface RepoSyncReport {
  at: string;
  resolutions: RepoSyncResolution[];
  diagnostics: MemoryFileDiagnostic[];
  /** Memories whose commit or author changed (a commit, a pull). */
  provenance_updated: number;
  /** The instructions file's section, when one is kept (options.agentsFile). */
  agents_file?: AgentsFileResult;
}

const PAGE = 500;
const ID_LINE = /^id:\s*([A-Za-z0-9_-]{1,64})\s*$/m;

export class RepoMemorySync {
  private readonly deps: CoreDeps;
  private readonly files: RepoMemoryFiles;
  private readonly projectId: string;
  private readonly partition: string;
  private readonly pollMs: number;
  private readonly debounceMs: number;
  private readonly agentsFile: AgentsFileTarget | null;
  private readonly anchors: AnchorChecker | null;
  private chain: Promise<unknown> = Promise.resolve();
  private queued: Promise<RepoSyncReport> | null = null;
  private applying = false;
  private lastToken: string | null = null;
  private readonly listeners = new Set<(report: RepoSyncReport) => void>();
  private readonly disposers: Array<() => void> = [];
  private debounceTimer: ReturnType<typeof setTimeout> | undefined;
  private report: RepoSyncReport | null = null;
  /** Memory id -> the hash of its file as the last pass left it: tells an erased memory's file from a new one. */
  private seen = new Map<string, string>();
  /** The files this pass wrote, by memory id: their hash. */
  private readonly writtenHashes = new Map<string, string>();

  constructor(deps: CoreDeps, files: RepoMemoryFiles, options: RepoMemorySyncOptions) {
    this.deps = deps;
    this.files = files;
    this.projectId = options.projectId;
    this.partition = sharedPartition('project', options.projectId);
    this.pollMs = options.pollMs ?? 3000;
    this.debounceMs = options.debounceMs ?? 200;
    this.agentsFile = options.agentsFile ?? null;
    this.anchors = options.anchors === undefined ? deps.anchors : options.anchors;
  }

  /** The last pass's report; null before the first. */
  get lastReport(): RepoSyncReport | null {
    return this.report;
  }

  /** Called after every pass, with what it did and what it found wrong. */
  onReport(listener: (report: RepoSyncReport) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** A full pass now, then a pass whenever the folder, the repository or the store changes. */
  async start(): Promise<RepoSyncReport> {
    const first = await this.sync();
    const watcher = this.files.watch(() => this.soon());
    this.disposers.push(() => watcher.dispose());
    const events = this.deps.events.on((event) => {
      // The pass's own writes are not a reason for another pass.
      if (event.type === 'memory' && event.user_id === this.partition && !this.applying) this.soon();
    });
    this.disposers.push(() => events.dispose());
    if (this.pollMs > 0) {
      // Another process on the same data directory (the editor's memory process, a second server).
      const poll = setInterval(() => void this.pollStore(), this.pollMs);
      this.disposers.push(() => clearInterval(poll));
    }
    return first;
  }

  /** Stops watching; a pass under way finishes before this resolves (the store closes after it). */
  async close(): Promise<void> {
    clearTimeout(this.debounceTimer);
    for (const dispose of this.disposers.splice(0)) dispose();
    await this.chain;
  }

  /** A full pass (the command "Sync Project Memories Now", a rescan after a branch switch). */
  sync(): Promise<RepoSyncReport> {
    if (this.queued) return this.queued;
    const run = this.chain.then(() => {
      this.queued = null;
      return this.pass();
    });
    this.queued = run;
    // The next pass waits for this one whatever its outcome; the outcome itself goes to this caller.
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private soon(): void {
    clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => this.syncLogged(), this.debounceMs);
  }

  private async pollStore(): Promise<void> {
    try {
      const token = await this.deps.store.changeToken();
      if (token !== this.lastToken) this.syncLogged();
    } catch (error) {
      this.deps.log.warn('project memories: reading the store change token failed', error);
    }
  }

  private syncLogged(): void {
    this.sync().catch((error: unknown) => this.deps.log.error('project memories: a sync pass failed', error));
  }

  private async pass(): Promise<RepoSyncReport> {
    const [memories, listing, provenance] = await Promise.all([
      this.projectMemories(),
      this.files.list(),
      this.files.provenance(),
    ]);
    const diagnostics: MemoryFileDiagnostic[] = listing.problems.map((problem) =>
      diagnostic(problem.path, 1, 'UNREADABLE_FILE', problem.message),
    );
    const byPath = new Map<string, MemoryRecord>();
    for (const memory of memories) {
      const origin = repositoryOriginOf(memory.metadata);
      if (origin) byPath.set(origin.path, memory);
    }
    const fileSides: FileSide[] = [];
    const seenIds = new Map<string, string>();
    for (const { path, text } of listing.files) {
      const hash = sha256Hex(text);
      const parsed = parseMemoryFile(path, text);
      if (parsed.ok) {
        const earlier = seenIds.get(parsed.file.id);
        if (earlier === undefined) {
          seenIds.set(parsed.file.id, path);
          fileSides.push({ file_id: parsed.file.id, path, hash, ok: true, file: parsed.file });
          continue;
        }
        const message = `Another file (${earlier}) has the same id ${parsed.file.id}; give this one its own id or remove it.`;
        fileSides.push({
          file_id: null,
          path,
          hash,
          ok: false,
          diagnostics: [diagnostic(path, 2, 'DUPLICATE_ID', message)],
        });
        continue;
      }
      // A file that does not read still names its memory (its id line, else the path it was written
      // to), so the memory is kept as it was instead of being taken for deleted in the repository.
      const fileId = ID_LINE.exec(text)?.[1] ?? byPath.get(path)?.memory_id ?? null;
      fileSides.push({ file_id: fileId, path, hash, ok: false, diagnostics: parsed.diagnostics });
    }
    const storeSides = memories.map((memory) => storeSide(memory));
    const present = new Set(memories.map((memory) => memory.memory_id));
    const erased = new Map([...this.seen].filter(([memoryId]) => !present.has(memoryId)));
    const actions = planSync(storeSides, fileSides, erased);
    const seen = new Map<string, string>();
    for (const memory of memories) {
      const origin = repositoryOriginOf(memory.metadata);
      if (origin) seen.set(memory.memory_id, origin.hash);
    }
    const byId = new Map(memories.map((memory) => [memory.memory_id, memory]));
    const fileVersions = new Map(fileSides.flatMap((side) => (side.ok ? [[side.path, side.file.version]] : [])));

    const resolutions: RepoSyncResolution[] = [];
    const touched = new Set<string>();
    this.applying = true;
    try {
      for (const action of actions) {
        if (action.kind === 'report') {
          diagnostics.push(...action.diagnostics);
          continue;
        }
        const memoryId = action.kind === 'import' ? action.file.id : action.memory_id;
        try {
          const path = await this.apply(action, byId.get(memoryId) ?? null, provenance, fileVersions);
          if (action.kind === 'import' || action.kind === 'update-store' || action.kind === 'restore-store')
            seen.set(memoryId, action.hash);
          if (action.kind === 'delete-file') seen.delete(memoryId);
          touched.add(memoryId);
          resolutions.push({ kind: action.kind, memory_id: memoryId, path, reason: action.reason });
        } catch (error) {
          diagnostics.push(this.failure(action, memoryId, error));
        }
      }
      // Files written this pass carry their new hash in the memory's origin (setOrigin keeps it here too).
      for (const [memoryId, hash] of this.writtenHashes) seen.set(memoryId, hash);
      this.writtenHashes.clear();
      this.seen = seen;
      const refreshed = provenance ? await this.refreshProvenance(memories, touched, provenance) : 0;
      const agentsFile = await this.updateAgentsFile(diagnostics);
      this.lastToken = await this.deps.store.changeToken();
      const report: RepoSyncReport = {
        at: this.deps.clock.now().toISOString(),
        resolutions,
        diagnostics,
        provenance_updated: refreshed,
        ...(agentsFile ? { agents_file: agentsFile } : {}),
      };
      this.report = report;
      for (const line of reportLines(report)) this.deps.log.info(line);
      for (const listener of this.listeners) listener(report);
      return report;
    } finally {
      this.applying = false;
    }
  }

  /** The instructions file's section as the pinned memories are now; a problem with it is a diagnostic. */
  private async updateAgentsFile(diagnostics: MemoryFileDiagnostic[]): Promise<AgentsFileResult | null> {
    if (!this.agentsFile) return null;
    try {
      return await updateAgentsFile(this.deps, this.files, this.projectId, this.agentsFile);
    } catch (error) {
      if (!MemoryError.is(error)) throw error;
      diagnostics.push(diagnostic(this.agentsFile.path, 1, 'AGENTS_SECTION', error.message));
      return null;
    }
  }

  /** Carries one decision out; returns the file's path. */
  private async apply(
    action: Exclude<SyncAction, { kind: 'report' }>,
    memory: MemoryRecord | null,
    provenance: Map<string, FileProvenance> | null,
    fileVersions: Map<string, number>,
  ): Promise<string> {
    switch (action.kind) {
      case 'write-file': {
        const current = required(memory, action.memory_id);
        const path = action.path ?? memoryFileName(current.memory_id, current.content);
        // The written version is above the file's, whichever side won, so the next reader sees it as newer.
        const version = Math.max(action.file.version, (fileVersions.get(path) ?? 0) + 1);
        const text = serializeMemoryFile({ ...action.file, version });
        await this.files.write(path, text);
        this.writtenHashes.set(current.memory_id, sha256Hex(text));
        await this.setOrigin(current, {
          ...originOf(current, path),
          path,
          hash: sha256Hex(text),
          version,
          synced_at: current.updated_at,
          last_sync: action.reason,
        });
        return path;
      }
      case 'delete-file':
        await this.files.remove(action.path);
        // An erased memory is no longer in the store to tell of it.
        if (action.reason !== 'erased-in-store') this.emit([action.memory_id], 'updated');
        return action.path;
      case 'forget-in-store': {
        const at = this.deps.clock.now().toISOString();
        await this.deps.store.forgetMemories(this.partition, [action.memory_id], at);
        this.emit([action.memory_id], 'deleted');
        return (memory && repositoryOriginOf(memory.metadata)?.path) ?? `(memory ${action.memory_id})`;
      }
      case 'import':
        await this.importFile(action.file, action.path, action.hash, provenance?.get(action.path), action.reason);
        return action.path;
      case 'restore-store': {
        const at = this.deps.clock.now().toISOString();
        await this.deps.store.restoreMemories(this.partition, [action.memory_id], at);
        const [restored] = await this.deps.store.getMemories(this.partition, [action.memory_id]);
        await this.updateFromFile(required(restored ?? null, action.memory_id), action, provenance?.get(action.path));
        this.emit([action.memory_id], 'restored');
        return action.path;
      }
      case 'update-store':
        await this.updateFromFile(required(memory, action.memory_id), action, provenance?.get(action.path));
        return action.path;
    }
  }

  private async importFile(
    file: MemoryFile,
    path: string,
    hash: string,
    commit: FileProvenance | undefined,
    reason: SyncReason,
  ): Promise<void> {
    const { anchors, unresolved } = await this.resolveAnchors(file, path);
    const embedding = await this.embed(file.body);
    const memory: MemoryRecord = {
      memory_id: file.id,
      user_id: this.partition,
      layer: 'project',
      scope_id: this.projectId,
      org_id: null,
      project_id: this.projectId,
      memory_category: file.category,
      memory_subtype: file.subtype,
      content: file.body,
      summary: null,
      entities: entitiesOf(file.body, anchors),
      tags: file.tags,
      metadata: {
        ...(anchors.length > 0 ? { [ANCHORS_FIELD]: anchors } : {}),
        ...(file.fact ? { [FACT_FIELD]: file.fact } : {}),
        [REPOSITORY_FIELD]: withCommit(
          {
            path,
            hash,
            version: file.version,
            synced_at: file.updated,
            last_sync: reason,
            ...(unresolved.length > 0 ? { unresolved_anchors: unresolved } : {}),
          },
          commit,
        ),
      },
      event_time: null,
      is_temporal: file.category === 'episodic',
      importance: 0.5,
      access_count: 0,
      decay_factor: 1,
      related_memories: [],
      supersedes: null,
      superseded_by: null,
      source_session: null,
      source_type: 'explicit',
      confidence: 1,
      pinned: file.pinned,
      embedding_model: embedding?.model ?? null,
      created_at: file.created,
      last_accessed: file.updated,
      updated_at: file.updated,
      deleted_at: null,
      version: 1,
    };
    await this.deps.store.insertMemory(memory, embedding);
    this.emit([memory.memory_id], 'created');
  }

  /** The file's text and fields over the memory, based on the version read: an edit made meanwhile wins the next pass. */
  private async updateFromFile(
    memory: MemoryRecord,
    action: Extract<SyncAction, { kind: 'update-store' | 'restore-store' }>,
    commit: FileProvenance | undefined,
  ): Promise<void> {
    const { file } = action;
    const sameAnchors = JSON.stringify(fileOfMemory(memory, 1).anchors) === JSON.stringify(file.anchors);
    const resolved = sameAnchors ? null : await this.resolveAnchors(file, action.path);
    const anchors = resolved?.anchors ?? null;
    const unresolved = resolved ? resolved.unresolved : (repositoryOriginOf(memory.metadata)?.unresolved_anchors ?? []);
    const contentChanged = memory.content !== file.body;
    const at = this.deps.clock.now().toISOString();
    const origin = withCommit(
      {
        path: action.path,
        hash: action.hash,
        version: file.version,
        synced_at: at,
        last_sync: action.reason,
        ...(unresolved.length > 0 ? { unresolved_anchors: unresolved } : {}),
      },
      commit,
    );
    await this.deps.store.changeMemory({
      user_id: this.partition,
      memory_id: memory.memory_id,
      at,
      expected_version: memory.version,
      if_forgotten: 'reject',
      change: {
        set: {
          memory_category: file.category,
          memory_subtype: file.subtype,
          tags: file.tags,
          pinned: file.pinned,
          ...(contentChanged || anchors
            ? { entities: entitiesOf(file.body, anchors ?? anchorsOf(memory.metadata)) }
            : {}),
        },
        merge_metadata: {
          [REPOSITORY_FIELD]: origin,
          ...(anchors ? { [ANCHORS_FIELD]: anchors } : {}),
          // The file's fact line is the fact (seed 002); a file that drops it makes the memory no fact.
          ...(file.fact || factOfMemory(memory) ? { [FACT_FIELD]: file.fact ?? null } : {}),
        },
        ...(contentChanged ? { content: file.body, embedding: await this.embed(file.body) } : {}),
      },
    });
    this.emit([memory.memory_id], 'updated');
  }

  /** The commit and author of each file, where a commit or pull changed them; no change of the memory's time. */
  private async refreshProvenance(
    memories: readonly MemoryRecord[],
    touched: ReadonlySet<string>,
    provenance: Map<string, FileProvenance>,
  ): Promise<number> {
    let refreshed = 0;
    for (const memory of memories) {
      if (touched.has(memory.memory_id) || memory.deleted_at !== null) continue;
      const origin = repositoryOriginOf(memory.metadata);
      if (!origin) continue;
      const commit = provenance.get(origin.path);
      if ((commit?.commit ?? undefined) === origin.commit) continue;
      const { commit: _c, author: _a, committed_at: _t, ...rest } = origin;
      await this.setOrigin(memory, withCommit(rest, commit));
      refreshed++;
    }
    return refreshed;
  }

  /** Bookkeeping of the sync only: updated_at stays, so it is never taken for an edit of the memory. */
  private async setOrigin(memory: MemoryRecord, origin: RepositoryOrigin): Promise<void> {
    await this.deps.store.changeMemory({
      user_id: this.partition,
      memory_id: memory.memory_id,
      at: null,
      if_forgotten: 'drop',
      change: { merge_metadata: { [REPOSITORY_FIELD]: origin } },
    });
    this.emit([memory.memory_id], 'updated');
  }

  /**
   * Anchors as the file names them, resolved in the workspace. One that does not resolve here (its
   * code is on another branch, no workspace to resolve in) is kept as written in the memory's origin,
   * so the file keeps it when the sync writes the file again.
   */
  private async resolveAnchors(
    file: MemoryFile,
    path: string,
  ): Promise<{ anchors: CodeAnchor[]; unresolved: string[] }> {
    const checker = this.anchors;
    const anchors: CodeAnchor[] = [];
    const unresolved: string[] = [];
    for (const written of file.anchors) {
      const input = anchorInputOf(written);
      try {
        const anchor = !checker
          ? null
          : 'whole_file' in input
            ? await checker.fileAnchor(input.path)
            : await checker.create(input);
        if (anchor) anchors.push(anchor);
        else unresolved.push(written);
      } catch (error) {
        if (!MemoryError.is(error)) throw error;
        unresolved.push(written);
        this.deps.log.warn(`project memories: ${path}: anchor "${written}" does not resolve here (${error.message})`);
      }
    }
    return { anchors, unresolved };
  }

  private async embed(text: string): Promise<StoredEmbedding | null> {
    const outcome = await this.deps.embeddings.embed(text);
    const model = this.deps.embeddings.model;
    return outcome.vector && model ? { model, vector: outcome.vector } : null;
  }

  private async projectMemories(): Promise<MemoryRecord[]> {
    const memories: MemoryRecord[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.deps.store.listMemories({
        filter: {
          user_id: this.partition,
          scopes: [{ layer: 'project', scope_id: this.projectId }],
          state: 'all',
          include_superseded: true,
        },
        sort: 'created',
        offset,
        limit: PAGE,
      });
      memories.push(...page.items);
      if (page.items.length < PAGE) return memories;
    }
  }

  private emit(memoryIds: string[], change: 'created' | 'updated' | 'deleted' | 'restored'): void {
    this.deps.events.emit({ type: 'memory', user_id: this.partition, memory_ids: memoryIds, change });
  }

  private failure(
    action: Exclude<SyncAction, { kind: 'report' }>,
    memoryId: string,
    error: unknown,
  ): MemoryFileDiagnostic {
    const path = 'path' in action && action.path ? action.path : `(memory ${memoryId})`;
    if (MemoryError.is(error) && action.kind === 'write-file' && error.details?.kinds !== undefined)
      return diagnostic(path, 1, 'SECRET_NOT_WRITTEN', error.message);
    if (MemoryError.is(error) && error.code === 'CONFLICT') {
      // Edited while the pass ran: the next pass decides again from both sides as they are then.
      this.soon();
      return diagnostic(path, 1, 'SYNC_FAILED', `${memoryId} changed during the sync; it is synced again.`);
    }
    const message = MemoryError.is(error) ? `${error.code}: ${error.message}` : String(error);
    this.deps.log.warn(`project memories: ${action.kind} of ${memoryId} failed`, error);
    return diagnostic(path, 1, action.kind === 'import' ? 'NOT_IMPORTED' : 'SYNC_FAILED', message);
  }
}

/** One line per change and per problem: "project memories: .memory/x.md:3: INVALID_FIELD …". */
export function reportLines(report: RepoSyncReport): string[] {
  return [
    ...report.resolutions.map(
      (resolution) =>
        `project memories: ${resolution.path}: ${resolution.kind} ${resolution.memory_id} (${resolution.reason})`,
    ),
    ...report.diagnostics.map(
      (diagnostic) =>
        `project memories: ${diagnostic.path}:${diagnostic.line}: ${diagnostic.code} ${diagnostic.message}`,
    ),
    ...(report.agents_file?.changed
      ? [`project memories: ${report.agents_file.path}: section rewritten (${report.agents_file.included} pinned)`]
      : []),
  ];
}

function storeSide(memory: MemoryRecord): StoreSide {
  const origin = repositoryOriginOf(memory.metadata);
  return {
    file_id: memory.memory_id,
    memory_id: memory.memory_id,
    file: fileOfMemory(memory, origin?.version ?? 1),
    updated_at: memory.updated_at,
    // A superseded memory is no longer what the project knows: its file goes, like a forgotten one's.
    deleted_at: memory.deleted_at ?? (memory.superseded_by ? memory.updated_at : null),
    baseline: origin
      ? { path: origin.path, hash: origin.hash, version: origin.version, synced_at: origin.synced_at }
      : null,
  };
}

function originOf(memory: MemoryRecord, path: string): Partial<RepositoryOrigin> {
  const origin = repositoryOriginOf(memory.metadata);
  if (!origin) return {};
  // The commit names the file at its old path; a file written under a new path has none yet.
  if (origin.path === path) return origin;
  return origin.unresolved_anchors ? { unresolved_anchors: origin.unresolved_anchors } : {};
}

function withCommit(origin: RepositoryOrigin, commit: FileProvenance | undefined): RepositoryOrigin {
  return commit ? { ...origin, commit: commit.commit, author: commit.author, committed_at: commit.date } : origin;
}

function entitiesOf(body: string, anchors: readonly CodeAnchor[]): string[] {
  return withAnchorEntities(normaliseEntities(extractEntities(body)), anchors).slice(0, LIMITS.entities);
}

function required(memory: MemoryRecord | null, memoryId: string): MemoryRecord {
  if (!memory) throw new MemoryError('MEMORY_NOT_FOUND', `Memory ${memoryId} is no longer in the store.`);
  return memory;
}

function diagnostic(path: string, line: number, code: MemoryFileProblem, message: string): MemoryFileDiagnostic {
  return { path, line, code, message };
}
