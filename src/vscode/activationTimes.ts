/** How long activation and the first store open took, for the log, a command and the e2e test. */
export class ActivationTimes {
  /** Synchronous part of activate(): registrations only. */
  activateMs: number | null = null;
  /** From activation start until the memory store was open and the session ready. */
  storeReadyMs: number | null = null;

  describe(): string {
    const store = this.storeReadyMs === null ? 'not open yet' : `${this.storeReadyMs} ms after activation started`;
    return `Firebolt Memory activated in ${this.activateMs ?? '?'} ms; memory store ready ${store}.`;
  }

  snapshot(): { activateMs: number | null; storeReadyMs: number | null } {
    return { activateMs: this.activateMs, storeReadyMs: this.storeReadyMs };
  }
}
