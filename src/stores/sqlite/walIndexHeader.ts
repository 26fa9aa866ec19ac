import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** Two copies of SQLite's 48-byte WalIndexHdr open the `-shm` file. */
const HEADER_BYTES = 48;
/** WALINDEX_MAX_VERSION, the header's first field: any other value is a format this code does not know. */
const WAL_INDEX_VERSION = 3_007_000;
/** The header's isInit byte: 1 once a connection has built the index. */
const IS_INIT_OFFSET = 12;

/**
 * Platforms where a plain read of the `-shm` file sees what other processes wrote through their
 * shared mapping of it (one page cache for both). Windows does not promise that coherence between
 * ReadFile and a mapped view, so there every read transaction keeps asking SQLite.
 */
const COHERENT_PLATFORMS: ReadonlySet<NodeJS.Platform> = new Set(['linux', 'darwin']);

/**
 * The WAL index header of a SQLite file in WAL mode, read from its `-shm` file. Every commit of
 * any connection rewrites it (the frame count, a per-transaction counter and the checksum move;
 * a WAL restart changes its salts), second copy first, then the first. So while it reads the same
 * as before, nobody committed in between, which one `pread` tells without the WAL read lock and
 * the statement that `PRAGMA data_version` needs.
 *
 * A copy that is being rewritten reads as two differing copies and counts as a change; so does a
 * failed read. Only ever a shortcut: a caller that sees a change asks SQLite itself.
 */
export class WalIndexHeader {
  private fd: number | null;
  private readonly scratch = Buffer.alloc(HEADER_BYTES * 2);
  /** Whether `scratch` holds what the last read found, both copies equal. */
  private lastReadStable = false;

  private constructor(fd: number) {
    this.fd = fd;
  }

  /**
   * Opens the header of the database at `databasePath`; null when it cannot be used here (another
   * platform, no `-shm` file, a header format this code does not know). Call with a connection to
   * the file open and past its first read, so the `-shm` file is the one SQLite maps.
   */
  static open(databasePath: string, platform: NodeJS.Platform = process.platform): WalIndexHeader | null {
    if (!COHERENT_PLATFORMS.has(platform)) return null;
    let fd: number;
    try {
      fd = openSync(`${databasePath}-shm`, 'r');
    } catch {
      // No shared-memory file (heap-memory WAL index, say): data_version answers every read.
      return null;
    }
    const header = new WalIndexHeader(fd);
    const first = header.current();
    if (first === null || first.readUInt32LE(0) !== nativeVersion() || first[IS_INIT_OFFSET] !== 1) {
      header.close();
      return null;
    }
    return header;
  }

  /** A copy of the header as it reads now; null when its copies differ (mid-commit) or the read failed. */
  current(): Buffer | null {
    return this.readStable() ? Buffer.from(this.scratch.subarray(0, HEADER_BYTES)) : null;
  }

  /**
   * A copy of the header as the last read (`current` or `matches`) found it; read again only when
   * that read failed or found it mid-commit. Never newer than a read now would be: a caller that
   * needs a header no newer than the snapshot it takes next (the change feed's catch-up, right
   * after a check that found a commit) loses nothing by it and saves a system call. An older one
   * only makes the next check find a change and catch up once more.
   */
  lastRead(): Buffer | null {
    if (this.fd === null) return null;
    return this.lastReadStable ? Buffer.from(this.scratch.subarray(0, HEADER_BYTES)) : this.current();
  }

  /** Whether the header still reads exactly as `known` (from `current`): no commit since. */
  matches(known: Buffer): boolean {
    return this.readStable() && sameBytes(this.scratch, 0, known, 0);
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private readStable(): boolean {
    this.lastReadStable = false;
    if (this.fd === null) return false;
    let read: number;
    try {
      read = readSync(this.fd, this.scratch, 0, HEADER_BYTES * 2, 0);
    } catch {
      // A failed read only costs the shortcut: the caller asks SQLite, which reports real faults.
      return false;
    }
    this.lastReadStable = read === HEADER_BYTES * 2 && sameBytes(this.scratch, HEADER_BYTES, this.scratch, 0);
    return this.lastReadStable;
  }
}

/**
 * Whether the header's 48 bytes at `at` in `a` equal those at `from` in `b`. A plain loop, not
 * `Buffer.compare` with offsets, whose argument checks and native call cost more than the
 * comparison (0.1–0.5 µs of a 2.2–3.6 µs check alone); two run on nearly every read.
 */
function sameBytes(a: Uint8Array, at: number, b: Uint8Array, from: number): boolean {
  for (let index = 0; index < HEADER_BYTES; index++) if (a[at + index] !== b[from + index]) return false;
  return true;
}

/** The version field as it reads little-endian: SQLite writes the WAL index in the machine's byte order. */
function nativeVersion(): number {
  if (endianness() === 'LE') return WAL_INDEX_VERSION;
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(WAL_INDEX_VERSION);
  return bytes.readUInt32LE(0);
}
