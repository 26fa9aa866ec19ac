import { accessSync, constants as fsConstants } from 'node:fs';
import { MemoryError } from '../../core/domain/errors.ts';

// Primary SQLite result codes (extended codes carry them in the low byte).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;

const READ_ONLY_FS_CODES = new Set(['EROFS', 'EACCES', 'EPERM']);
const FULL_FS_CODES = new Set(['ENOSPC', 'EDQUOT']);

interface SqliteErrorShape {
  errcode?: number;
  errstr?: string;
  code?: string;
  message?: string;
}

function primaryCode(error: unknown): number | undefined {
  const errcode = (error as SqliteErrorShape | null)?.errcode;
  return typeof errcode === 'number' ? errcode & 0xff : undefined;
}

export function isBusyError(error: unknown): boolean {
  const code = primaryCode(error);
  return code === SQLITE_BUSY || code === SQLITE_LOCKED;
}

export function isDirectoryWritable(dir: string): boolean {
  try {
    accessSync(dir, fsConstants.W_OK);
    return true;
  } catch (error) {
    if (READ_ONLY_FS_CODES.has((error as SqliteErrorShape).code ?? '')) return false;
    throw error;
  }
}

/**
 * Maps a SQLite or file-system failure to the typed error callers branch on. A full disk and a
 * read-only data directory get their own codes because the fix is the user's (free space, fix
 * permissions), not a retry of the same call.
 */
export function toMemoryError(error: unknown, operation: string, dataDir: string): MemoryError {
  if (error instanceof MemoryError) return error;
  const shape = (error ?? {}) as SqliteErrorShape;
  const code = primaryCode(error);
  const reason = shape.errstr ? `${shape.errstr}: ${shape.message ?? ''}` : (shape.message ?? String(error));
  const details = { data_dir: dataDir, ...(code !== undefined ? { sqlite_code: shape.errcode } : {}) };
  if (code === SQLITE_FULL || FULL_FS_CODES.has(shape.code ?? '')) {
    return new MemoryError(
      'STORAGE_FULL',
      `The disk holding ${dataDir} is full; free some space and retry. Nothing was written by this ${operation}.`,
      {
        operation,
        details,
        cause: error,
      },
    );
  }
  const readOnly =
    code === SQLITE_READONLY ||
    READ_ONLY_FS_CODES.has(shape.code ?? '') ||
    (code === SQLITE_CANTOPEN && !safeDirectoryWritable(dataDir));
  if (readOnly) {
    return new MemoryError(
      'STORAGE_READ_ONLY',
      `The memory data directory ${dataDir} is read-only for this process; fix its permissions or choose another data directory.`,
      {
        operation,
        details,
        cause: error,
      },
    );
  }
  return new MemoryError('PROVIDER_ERROR', `SQLite ${operation} failed: ${reason}`, {
    operation,
    details,
    cause: error,
  });
}

function safeDirectoryWritable(dir: string): boolean {
  try {
    return isDirectoryWritable(dir);
  } catch {
    // A directory we cannot even stat (e.g. missing) is not a permission problem: the original
    // SQLite error is reported as PROVIDER_ERROR instead.
    return true;
  }
}
