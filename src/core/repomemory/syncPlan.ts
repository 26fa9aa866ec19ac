import type { MemoryFile, MemoryFileDiagnostic } from './memoryFile.ts';

/**
 * The three-way decision between a project memory in the store and its file in `.memory/`
 * (issue #34 point 4). The baseline is what the last sync saw on both sides (kept in the memory's
 * metadata, so every process on one data directory shares it). Pure: the caller reads both sides
 * and carries the actions out.
 */

export interface SyncBaseline {
  path: string;
  /** Hash of the file text as last written or read. */
  hash: string;
  version: number;
  /** The store's updated_at when the sync last matched the two sides. */
  synced_at: string;
}

export interface StoreSide {
  file_id: string;
  memory_id: string;
  /** The file this memory would be written as now. */
  file: MemoryFile;
  updated_at: string;
  deleted_at: string | null;
  baseline: SyncBaseline | null;
}

export type FileSide =
  | { file_id: string; path: string; hash: string; ok: true; file: MemoryFile }
  | { file_id: string | null; path: string; hash: string; ok: false; diagnostics: MemoryFileDiagnostic[] };

export type SyncReason =
  | 'new-in-store'
  | 'new-in-repository'
  | 'changed-in-store'
  | 'changed-in-repository'
  | 'both-changed-store-newer'
  | 'both-changed-repository-newer'
  | 'deleted-in-repository'
  | 'deleted-in-store'
  | 'edited-in-store-after-file-deletion'
  | 'edited-in-repository-after-store-deletion'
  | 'deleted-in-store-after-file-edit'
  | 'erased-in-store';

export type SyncAction =
  | { kind: 'write-file'; memory_id: string; file: MemoryFile; path: string | null; reason: SyncReason }
  | { kind: 'delete-file'; memory_id: string; path: string; reason: SyncReason }
  | { kind: 'import'; file: MemoryFile; path: string; hash: string; reason: SyncReason }
  | { kind: 'update-store'; memory_id: string; file: MemoryFile; path: string; hash: string; reason: SyncReason }
  | { kind: 'restore-store'; memory_id: string; file: MemoryFile; path: string; hash: string; reason: SyncReason }
  | { kind: 'forget-in-store'; memory_id: string; reason: SyncReason }
  | { kind: 'report'; diagnostics: MemoryFileDiagnostic[] };

/**
 * One action per memory that needs one; a malformed file is reported and its memory left as it was.
 * `erased`: memories the last pass saw in the store that are no longer there at all (erased by
 * forget_memory with hard, or forget_all), with the hash their file had then. Such a file, unchanged
 * since, goes too; one edited since is left for a person to decide (the store refuses its id).
 */
export function planSync(
  store: readonly StoreSide[],
  files: readonly FileSide[],
  erased: ReadonlyMap<string, string> = new Map(),
): SyncAction[] {
  const actions: SyncAction[] = [];
  const fileById = new Map<string, FileSide>();
  for (const side of files) {
    if (!side.ok) actions.push({ kind: 'report', diagnostics: side.diagnostics });
    if (side.file_id) fileById.set(side.file_id, side);
  }
  const seen = new Set<string>();
  for (const memory of store) {
    seen.add(memory.file_id);
    const action = decide(memory, fileById.get(memory.file_id) ?? null);
    if (action) actions.push(action);
  }
  for (const side of files) {
    if (!side.ok || seen.has(side.file_id)) continue;
    if (erased.get(side.file_id) === side.hash)
      actions.push({ kind: 'delete-file', memory_id: side.file_id, path: side.path, reason: 'erased-in-store' });
    else
      actions.push({ kind: 'import', file: side.file, path: side.path, hash: side.hash, reason: 'new-in-repository' });
  }
  return actions;
}

function decide(memory: StoreSide, side: FileSide | null): SyncAction | null {
  // A file git left mid-merge, or one with a problem: the store keeps its last good version.
  if (side && !side.ok) return null;
  const base = memory.baseline;
  const live = memory.deleted_at === null;
  const storeChanged = base === null || memory.updated_at > base.synced_at;
  if (!side) {
    if (!base) return live ? write(memory, null, 'new-in-store') : null;
    if (!live) return null;
    // Deleted in the repository: unless the store was edited since, the deletion follows.
    return storeChanged
      ? write(memory, base.path, 'edited-in-store-after-file-deletion')
      : { kind: 'forget-in-store', memory_id: memory.memory_id, reason: 'deleted-in-repository' };
  }
  const fileChanged = base === null || side.hash !== base.hash;
  if (!live) {
    if (!fileChanged)
      return { kind: 'delete-file', memory_id: memory.memory_id, path: side.path, reason: 'deleted-in-store' };
    return side.file.updated > (memory.deleted_at ?? '')
      ? fromFile('restore-store', memory, side, 'edited-in-repository-after-store-deletion')
      : {
          kind: 'delete-file',
          memory_id: memory.memory_id,
          path: side.path,
          reason: 'deleted-in-store-after-file-edit',
        };
  }
  if (!fileChanged && !storeChanged) return null;
  if (fileChanged && !storeChanged) return fromFile('update-store', memory, side, 'changed-in-repository');
  if (!fileChanged) return write(memory, side.path, 'changed-in-store');
  if (sameMemory(memory.file, side.file)) return null;
  // Both changed: the newer version wins; on a tie the repository's, which the team reviewed.
  const storeVersion = (base?.version ?? 0) + 1;
  const storeNewer =
    storeVersion > side.file.version || (storeVersion === side.file.version && memory.updated_at > side.file.updated);
  return storeNewer
    ? write(memory, side.path, 'both-changed-store-newer')
    : fromFile('update-store', memory, side, 'both-changed-repository-newer');
}

function write(memory: StoreSide, path: string | null, reason: SyncReason): SyncAction {
  const version = memory.baseline ? memory.baseline.version + 1 : memory.file.version;
  return { kind: 'write-file', memory_id: memory.memory_id, file: { ...memory.file, version }, path, reason };
}

function fromFile(
  kind: 'update-store' | 'restore-store',
  memory: StoreSide,
  side: Extract<FileSide, { ok: true }>,
  reason: SyncReason,
): SyncAction {
  return { kind, memory_id: memory.memory_id, file: side.file, path: side.path, hash: side.hash, reason };
}

/** The fields both sides hold; times and version are bookkeeping, not what the memory says. */
function sameMemory(a: MemoryFile, b: MemoryFile): boolean {
  return (
    a.body.trim() === b.body.trim() &&
    a.category === b.category &&
    a.subtype === b.subtype &&
    a.pinned === b.pinned &&
    JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
    JSON.stringify(a.anchors) === JSON.stringify(b.anchors) &&
    JSON.stringify(a.fact ?? null) === JSON.stringify(b.fact ?? null)
  );
}
