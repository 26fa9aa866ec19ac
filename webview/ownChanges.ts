/**
 * Changes this panel made itself and re-reads on its own once the host has answered. The host also
 * announces them (a `memories-changed` notification, as for any writer), and reloading the list for
 * that as well would read it twice for one click. An expectation is dropped when its notification
 * arrives, when the action fails, or after EXPECTATION_MS (a write that changed nothing sends none),
 * so a later change by someone else to the same memory is never swallowed.
 */
export const EXPECTATION_MS = 5_000;

export class OwnChanges {
  private readonly expected = new Map<string, number>();
  private readonly now: () => number;

  constructor(now: () => number = () => Date.now()) {
    this.now = now;
  }

  /** Call before sending the request; the returned function withdraws the expectation (on failure). */
  expect(memoryIds: readonly string[]): () => void {
    const until = this.now() + EXPECTATION_MS;
    for (const id of memoryIds) this.expected.set(id, until);
    return () => {
      for (const id of memoryIds) if (this.expected.get(id) === until) this.expected.delete(id);
    };
  }

  /** True when every memory of a notification is one this panel changed itself and re-reads anyway. */
  consume(memoryIds: readonly string[]): boolean {
    const now = this.now();
    for (const [id, until] of this.expected) if (until < now) this.expected.delete(id);
    if (memoryIds.length === 0 || !memoryIds.every((id) => this.expected.has(id))) return false;
    for (const id of memoryIds) this.expected.delete(id);
    return true;
  }
}
