import { MemoryError } from '../core/domain/errors.ts';

/** A full memory id: `mem_` and 32 hex digits (a UUID without its dashes). */
const FULL_ID = /^mem_[0-9a-f]{32}$/;
/** What the text of an answer shows instead: `mem_` and the first 8 or more of those digits. */
const SHORT_ID = /^mem_[0-9a-f]{8,31}$/;
const SHORT_DIGITS = 8;
/** About 100 bytes an entry: 50,000 ids are a few MB, far more than agents are shown between restarts. */
const DEFAULT_CAPACITY = 50_000;

/**
 * Short memory ids for the text a model reads. A full id costs 18 cl100k tokens, as much as a
 * one-sentence memory; `mem_` and 8 hex digits cost 6. The server remembers, per user, which
 * full id each short id it has shown stands for, so any tool taking a memory id accepts the short
 * one back (update_memory, forget_memory, links, promotion...). The structured content always
 * carries the full id. Short ids last while the server process runs; an unknown one is a clear
 * error that says how to get a usable id, never a guess.
 */
export class ShortIdRegistry {
  /** `user \0 short` -> full id, oldest first (a Map keeps insertion order), for LRU eviction. */
  private readonly fullOf = new Map<string, string>();
  private readonly capacity: number;

  constructor(capacity = DEFAULT_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new MemoryError('CONFIGURATION_ERROR', `Short-id capacity must be a positive integer; got ${capacity}.`);
    this.capacity = capacity;
  }

  /** The shortest prefix (8 digits or more) of `memoryId` that names no other id shown to this user. */
  shorten(userId: string, memoryId: string): string {
    // Ids of another shape (imported from elsewhere, tests) are shown as they are: nothing to shorten safely.
    if (!FULL_ID.test(memoryId)) return memoryId;
    for (let digits = SHORT_DIGITS; digits < 32; digits += 4) {
      const short = memoryId.slice(0, 4 + digits);
      const key = `${userId}\u0000${short}`;
      const known = this.fullOf.get(key);
      if (known === undefined || known === memoryId) {
        this.fullOf.delete(key);
        this.fullOf.set(key, memoryId);
        if (this.fullOf.size > this.capacity) this.fullOf.delete(this.fullOf.keys().next().value!);
        return short;
      }
    }
    return memoryId;
  }

  /** The full id a memory-id argument stands for: full ids as given, short ones as shown to this user. */
  resolve(userId: string, memoryId: string, field: string): string {
    if (!SHORT_ID.test(memoryId)) return memoryId;
    const full = this.fullOf.get(`${userId}\u0000${memoryId}`);
    if (full === undefined) {
      throw new MemoryError(
        'MEMORY_NOT_FOUND',
        `${field} "${memoryId}" is a short id this server has not shown you (short ids last until the server restarts). Recall the memory again, or pass its full memory_id from the structured content.`,
        { details: { field } },
      );
    }
    return full;
  }
}

/** The arguments that name a memory, across the tools that take one. */
export const MEMORY_ID_ARGUMENTS = ['memory_id', 'other_memory_id', 'superseded_by', 'supersedes'] as const;
/** The arguments that name many memories. */
export const MEMORY_ID_LIST_ARGUMENTS = ['memory_ids'] as const;

/** `args` with every memory-id argument given as a short id replaced by its full id. */
export function withFullIds<T extends Record<string, unknown>>(registry: ShortIdRegistry, userId: string, args: T): T {
  let resolved: T | undefined;
  for (const field of MEMORY_ID_ARGUMENTS) {
    const value = args[field];
    if (typeof value !== 'string') continue;
    const full = registry.resolve(userId, value, field);
    if (full !== value) (resolved ??= { ...args })[field as keyof T] = full as T[keyof T];
  }
  for (const field of MEMORY_ID_LIST_ARGUMENTS) {
    const values = args[field];
    if (!Array.isArray(values)) continue;
    const full = values.map((value: unknown) =>
      typeof value === 'string' ? registry.resolve(userId, value, field) : value,
    );
    if (full.some((value, index) => value !== values[index]))
      (resolved ??= { ...args })[field as keyof T] = full as T[keyof T];
  }
  return resolved ?? args;
}
