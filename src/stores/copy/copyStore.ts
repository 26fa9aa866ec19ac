import { MemoryError } from '../../core/domain/errors.ts';
import type { AccessLogEntry, MemoryRecord } from '../../core/domain/records.ts';
import type { MemoryStore, StoreUserStats } from '../../core/ports/memoryStore.ts';

/** Where a copy got to; saved after every batch so an interrupted copy resumes there. */
export interface CopyCheckpointState {
  completedUsers: string[];
  /** The user in progress and how many of their memories (oldest first) are known to be in the target. */
  current: { user_id: string; memoriesDone: number } | null;
}

export interface CopyCheckpoint {
  load(): Promise<CopyCheckpointState | null>;
  save(state: CopyCheckpointState): Promise<void>;
}

export interface CopyProgress {
  user_id: string;
  phase: 'memories' | 'sessions' | 'access_log' | 'counters' | 'verify';
  done: number;
  total: number;
  copied: number;
  skipped: number;
}

export interface CopyOptions {
  /** The users to copy (the extension passes its own user; `fml migrate` every user of the source). */
  users: readonly string[];
  onProgress?: (progress: CopyProgress) => void;
  signal?: AbortSignal;
  checkpoint?: CopyCheckpoint;
  batchSize?: number;
}

/** Counts compared per user once copied; a difference fails the copy. */
const VERIFIED: ReadonlyArray<keyof StoreUserStats> = [
  'memories',
  'deleted',
  'embedded',
  'sessions',
  'working_items',
  'access_log_entries',
];

export interface UserCopyReport {
  user_id: string;
  memories_copied: number;
  memories_skipped: number;
  sessions: number;
  access_log_copied: number;
  mismatches: Array<{ field: string; source: number; target: number }>;
}

export interface CopyResult {
  cancelled: boolean;
  users: UserCopyReport[];
  /** True when every user's counts match. */
  verified: boolean;
}

/**
 * Copies users' memories (with embeddings, deleted and superseded ones included, oldest first so
 * storage order survives), sessions with their working items, and access logs from one store to
 * another through the MemoryStore port only. Idempotent: what the target already has (by id) is
 * skipped, working memory is upserted, and access counters are set to the source's values at
 * the end, so re-running copies nothing twice. Ends by comparing per-user counts.
 */
export async function copyStore(from: MemoryStore, to: MemoryStore, options: CopyOptions): Promise<CopyResult> {
  const batch = options.batchSize ?? 100;
  const state: CopyCheckpointState = (await options.checkpoint?.load()) ?? { completedUsers: [], current: null };
  const reports: UserCopyReport[] = [];
  const report = (progress: CopyProgress): void => options.onProgress?.(progress);

  for (const userId of options.users) {
    if (state.completedUsers.includes(userId)) continue;
    const user: UserCopyReport = {
      user_id: userId,
      memories_copied: 0,
      memories_skipped: 0,
      sessions: 0,
      access_log_copied: 0,
      mismatches: [],
    };
    reports.push(user);
    const memories = await allMemoriesOldestFirst(from, userId);
    const start = state.current?.user_id === userId ? Math.min(state.current.memoriesDone, memories.length) : 0;
    user.memories_skipped += start;
    for (let offset = start; offset < memories.length; offset += batch) {
      if (options.signal?.aborted) return { cancelled: true, users: reports, verified: false };
      const page = memories.slice(offset, offset + batch);
      const present = new Set(
        (
          await to.getMemories(
            userId,
            page.map((m) => m.memory_id),
          )
        ).map((m) => m.memory_id),
      );
      const missing = page.filter((m) => !present.has(m.memory_id));
      const embeddings = await from.getEmbeddings(
        userId,
        missing.map((m) => m.memory_id),
      );
      for (const memory of missing) await to.insertMemory(memory, embeddings.get(memory.memory_id) ?? null);
      user.memories_copied += missing.length;
      user.memories_skipped += page.length - missing.length;
      state.current = { user_id: userId, memoriesDone: offset + page.length };
      await options.checkpoint?.save(state);
      report({
        user_id: userId,
        phase: 'memories',
        done: offset + page.length,
        total: memories.length,
        copied: user.memories_copied,
        skipped: user.memories_skipped,
      });
    }

    const sessions = await from.listSessions(userId);
    for (const session of sessions) {
      if (options.signal?.aborted) return { cancelled: true, users: reports, verified: false };
      await to.commitWorking({ session, upsert: await from.listWorkingItems(session.session_id), delete: [] });
      user.sessions += 1;
      report({
        user_id: userId,
        phase: 'sessions',
        done: user.sessions,
        total: sessions.length,
        copied: user.sessions,
        skipped: 0,
      });
    }

    user.access_log_copied = await copyAccessLog(from, to, userId, batch * 5, (done, copied) =>
      report({ user_id: userId, phase: 'access_log', done, total: done, copied, skipped: done - copied }),
    );
    // recordAccess bumped the target's counters on top of the copied values; the source's win.
    await restoreCounters(to, userId, memories, batch);
    report({
      user_id: userId,
      phase: 'counters',
      done: memories.length,
      total: memories.length,
      copied: 0,
      skipped: 0,
    });

    state.completedUsers.push(userId);
    state.current = null;
    await options.checkpoint?.save(state);
  }

  for (const userId of options.users) {
    const [source, target] = await Promise.all([from.stats(userId), to.stats(userId)]);
    const mismatches = VERIFIED.filter((field) => source[field] !== target[field]).map((field) => ({
      field,
      source: source[field] as number,
      target: target[field] as number,
    }));
    let user = reports.find((entry) => entry.user_id === userId);
    if (!user) {
      user = {
        user_id: userId,
        memories_copied: 0,
        memories_skipped: source.memories + source.deleted,
        sessions: 0,
        access_log_copied: 0,
        mismatches: [],
      };
      reports.push(user);
    }
    user.mismatches = mismatches;
    report({ user_id: userId, phase: 'verify', done: 1, total: 1, copied: 0, skipped: 0 });
  }
  return { cancelled: false, users: reports, verified: reports.every((user) => user.mismatches.length === 0) };
}

async function allMemoriesOldestFirst(store: MemoryStore, userId: string): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  const pageSize = 500;
  for (let offset = 0; ; offset += pageSize) {
    const { items } = await store.listMemories({
      filter: { user_id: userId, state: 'all', include_superseded: true },
      sort: 'created',
      offset,
      limit: pageSize,
    });
    out.push(...items);
    if (items.length < pageSize) break;
  }
  // 'created' sorts newest first; inserting oldest first keeps neighbours in creation order.
  return out.reverse();
}

async function copyAccessLog(
  from: MemoryStore,
  to: MemoryStore,
  userId: string,
  pageSize: number,
  progress: (done: number, copied: number) => void,
): Promise<number> {
  const present = new Set<string>();
  for (let offset = 0; ; offset += pageSize) {
    const page = await to.listAccessLog(userId, offset, pageSize);
    for (const entry of page) present.add(entry.access_id);
    if (page.length < pageSize) break;
  }
  let copied = 0;
  let done = 0;
  for (let offset = 0; ; offset += pageSize) {
    const page: AccessLogEntry[] = await from.listAccessLog(userId, offset, pageSize);
    const missing = page.filter((entry) => !present.has(entry.access_id));
    if (missing.length > 0) await to.recordAccess(missing);
    copied += missing.length;
    done += page.length;
    progress(done, copied);
    if (page.length < pageSize) return copied;
  }
}

async function restoreCounters(
  to: MemoryStore,
  userId: string,
  memories: readonly MemoryRecord[],
  batch: number,
): Promise<void> {
  for (let offset = 0; offset < memories.length; offset += batch) {
    const page = memories.slice(offset, offset + batch);
    const target = new Map(
      (
        await to.getMemories(
          userId,
          page.map((m) => m.memory_id),
        )
      ).map((m) => [m.memory_id, m]),
    );
    for (const memory of page) {
      const copy = target.get(memory.memory_id);
      if (!copy)
        throw new MemoryError(
          'PROVIDER_ERROR',
          `Memory ${memory.memory_id} of ${userId} is missing from the target after the copy.`,
          { details: { memory_id: memory.memory_id } },
        );
      if (
        copy.access_count !== memory.access_count ||
        Date.parse(copy.last_accessed) !== Date.parse(memory.last_accessed)
      )
        await to.changeMemory({
          user_id: memory.user_id,
          memory_id: memory.memory_id,
          change: { access: { count: memory.access_count, last_accessed: memory.last_accessed } },
          at: null,
          if_forgotten: 'apply',
        });
    }
  }
}
