import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { IndexFileWriteError, IndexSnapshotFiles, writeAll } from '../../src/stores/sqlite/indexSnapshotFiles.ts';

/** Parts of uneven sizes, empty ones among them, with distinct bytes so any misplaced byte shows. */
function partsOf(sizes: readonly number[]): Uint8Array[] {
  let next = 0;
  return sizes.map((size) => Uint8Array.from({ length: size }, () => next++ % 251));
}

const joined = (parts: readonly Uint8Array[]): Buffer => Buffer.concat(parts);

/** A file handle whose writev takes at most `limit` bytes a call, as a kernel may. */
function shortWritingHandle(limit: number): { handle: FileHandle; bytes: () => Buffer; calls: () => number } {
  const file = Buffer.alloc(4096);
  let length = 0;
  let calls = 0;
  const handle = {
    async writev(buffers: Uint8Array[], position: number) {
      calls++;
      let written = 0;
      for (const buffer of buffers) {
        const take = Math.min(buffer.byteLength, limit - written);
        file.set(buffer.subarray(0, take), position + written);
        written += take;
        if (written === limit) break;
      }
      length = Math.max(length, position + written);
      return { bytesWritten: written, buffers };
    },
  } as unknown as FileHandle;
  return { handle, bytes: () => file.subarray(0, length), calls: () => calls };
}

describe('persisted index file writes', () => {
  it('writes every part in order through short writes that stop inside and between parts', async () => {
    const parts = partsOf([5, 0, 17, 3, 0, 40, 1]);
    for (const limit of [1, 3, 7, 16, 1000]) {
      const fake = shortWritingHandle(limit);
      await writeAll(fake.handle, parts);
      assert.deepEqual(fake.bytes(), joined(parts), `limit ${limit}`);
      assert.equal(fake.calls(), Math.ceil(66 / limit), `limit ${limit}: one call per ${limit} bytes`);
    }
  });

  it('fails with a typed error instead of looping when a write takes nothing', async () => {
    const fake = shortWritingHandle(0);
    await assert.rejects(writeAll(fake.handle, partsOf([4])), (error: unknown) => {
      assert.ok(error instanceof IndexFileWriteError);
      assert.equal(error.code, 'INDEX_FILE_WRITE_STALLED');
      return true;
    });
  });

  it('writes the temporary file whole, private to the account', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fml-index-write-'));
    try {
      const files = new IndexSnapshotFiles(join(dir, 'memory.db'));
      const parts = partsOf([8, 0, 300_000, 13]);
      const temporary = await files.writeTemporary('someone', parts);
      assert.deepEqual(await readFile(temporary), joined(parts));
      assert.equal((await stat(temporary)).mode & 0o777, 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
