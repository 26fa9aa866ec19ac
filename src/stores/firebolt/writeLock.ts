/**
 * Firebolt Core admits one write transaction at a time, so every write of this process
 * waits its turn here instead of colliding on the server.
 */
export class WriteLock {
  #tail: Promise<void> = Promise.resolve();

  async run<T>(work: () => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => (release = resolve));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  }
}
