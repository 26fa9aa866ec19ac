import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryFile } from '../../../src/core/repomemory/memoryFile.ts';
import { type FileSide, planSync, type StoreSide } from '../../../src/core/repomemory/syncPlan.ts';

const T0 = '2026-11-01T09:00:00.000Z';
const T1 = '2026-11-02T09:00:00.000Z';
const T2 = '2026-11-03T09:00:00.000Z';
const PATH = '.memory/use-pnpm-00000001.md';

function memoryFile(body: string, overrides: Partial<MemoryFile> = {}): MemoryFile {
  return {
    id: 'mem_00000001',
    category: 'preference',
    subtype: 'tools',
    tags: [],
    anchors: [],
    created: T0,
    updated: T0,
    version: 1,
    pinned: false,
    body,
    ...overrides,
  };
}

function stored(body: string, overrides: Partial<StoreSide> = {}): StoreSide {
  return {
    file_id: 'mem_00000001',
    memory_id: 'mem_local',
    file: memoryFile(body),
    updated_at: T0,
    deleted_at: null,
    baseline: { path: PATH, hash: 'h0', version: 1, synced_at: T0 },
    ...overrides,
  };
}

function onDisk(body: string, hash: string, overrides: Partial<MemoryFile> = {}): FileSide {
  return { file_id: 'mem_00000001', path: PATH, hash, ok: true, file: memoryFile(body, overrides) };
}

const kinds = (store: StoreSide[], files: FileSide[]) =>
  planSync(store, files).map((a) => [a.kind, 'reason' in a ? a.reason : '']);

describe('planSync: store ⇄ .memory/', () => {
  it('writes a new project memory and imports a new file', () => {
    assert.deepEqual(kinds([stored('Use pnpm.', { baseline: null })], []), [['write-file', 'new-in-store']]);
    assert.deepEqual(kinds([], [onDisk('Use pnpm.', 'h0')]), [['import', 'new-in-repository']]);
  });

  it('deletes the file of a memory erased since the last pass, unless the file changed since', () => {
    const erased = new Map([['mem_00000001', 'h0']]);
    assert.deepEqual(
      planSync([], [onDisk('Use pnpm.', 'h0')], erased).map((a) => [a.kind, 'reason' in a ? a.reason : '']),
      [['delete-file', 'erased-in-store']],
    );
    // Edited after the erasure (or brought back by a pull): not deleted; it is imported, which the store refuses.
    assert.deepEqual(
      planSync([], [onDisk('Use pnpm 9.', 'h1')], erased).map((a) => [a.kind, 'reason' in a ? a.reason : '']),
      [['import', 'new-in-repository']],
    );
    // Another memory erased: this file is new.
    assert.deepEqual(
      planSync([], [onDisk('Use pnpm.', 'h0')], new Map([['mem_other', 'h0']])).map((a) => a.kind),
      ['import'],
    );
  });

  it('does nothing when neither side changed since the last sync', () => {
    assert.deepEqual(kinds([stored('Use pnpm.')], [onDisk('Use pnpm.', 'h0')]), []);
  });

  it('follows the side that changed', () => {
    assert.deepEqual(kinds([stored('Use pnpm.')], [onDisk('Use pnpm 9.', 'h1')]), [
      ['update-store', 'changed-in-repository'],
    ]);
    const edited = planSync([stored('Use pnpm 9.', { updated_at: T1 })], [onDisk('Use pnpm.', 'h0')]);
    assert.deepEqual(
      edited.map((a) => a.kind),
      ['write-file'],
    );
    assert.equal(edited[0].kind === 'write-file' && edited[0].file.version, 2);
  });

  it('propagates deletions both ways', () => {
    assert.deepEqual(kinds([stored('Use pnpm.')], []), [['forget-in-store', 'deleted-in-repository']]);
    assert.deepEqual(kinds([stored('Use pnpm.', { deleted_at: T1 })], [onDisk('Use pnpm.', 'h0')]), [
      ['delete-file', 'deleted-in-store'],
    ]);
    assert.deepEqual(kinds([stored('Use pnpm.', { deleted_at: T1 })], []), []);
  });

  it('resolves a deletion against an edit by the newer version', () => {
    assert.deepEqual(kinds([stored('Use pnpm 9.', { updated_at: T1 })], []), [
      ['write-file', 'edited-in-store-after-file-deletion'],
    ]);
    assert.deepEqual(kinds([stored('Use pnpm.', { deleted_at: T1 })], [onDisk('Use pnpm 9.', 'h1', { updated: T2 })]), [
      ['restore-store', 'edited-in-repository-after-store-deletion'],
    ]);
    assert.deepEqual(kinds([stored('Use pnpm.', { deleted_at: T2 })], [onDisk('Use pnpm 9.', 'h1', { updated: T1 })]), [
      ['delete-file', 'deleted-in-store-after-file-edit'],
    ]);
  });

  it('resolves two edits by version, then time; a tie goes to the repository', () => {
    const store = stored('Use pnpm 9.', { updated_at: T2 });
    assert.deepEqual(kinds([store], [onDisk('Use yarn.', 'h1', { version: 3, updated: T1 })]), [
      ['update-store', 'both-changed-repository-newer'],
    ]);
    assert.deepEqual(kinds([store], [onDisk('Use yarn.', 'h1', { version: 2, updated: T1 })]), [
      ['write-file', 'both-changed-store-newer'],
    ]);
    assert.deepEqual(
      kinds([stored('Use pnpm 9.', { updated_at: T1 })], [onDisk('Use yarn.', 'h1', { version: 2, updated: T1 })]),
      [['update-store', 'both-changed-repository-newer']],
    );
  });

  it('reports a malformed or conflicted file and leaves its memory as it was', () => {
    const diagnostics = [{ path: PATH, line: 12, code: 'CONFLICT_MARKERS' as const, message: 'conflict' }];
    const actions = planSync(
      [stored('Use pnpm 9.', { updated_at: T1 })],
      [{ file_id: 'mem_00000001', path: PATH, hash: 'hx', ok: false, diagnostics }],
    );
    assert.deepEqual(actions, [{ kind: 'report', diagnostics }]);
  });
});
