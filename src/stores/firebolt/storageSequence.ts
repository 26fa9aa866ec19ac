/**
 * Firebolt has no rowid or auto-increment, so insertion order is a column the client fills:
 * microseconds since the epoch, bumped to stay strictly increasing within the process.
 * Across processes it is time order, which is what "stored just before" means there.
 */
export class StorageSequence {
  #last = 0;

  next(now: number = Date.now()): number {
    this.#last = Math.max(this.#last + 1, Math.floor(now) * 1000);
    return this.#last;
  }
}
