import { randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a panel sign-in lasts; reopening the printed URL signs in again. */
export const PANEL_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
const MAX_SESSIONS = 1_000;

/**
 * Panel sign-ins, kept server-side. The cookie carries a random session id, never the MCP bearer
 * token: browsers send 127.0.0.1 cookies to every port, so any other local web server a page is
 * opened on would otherwise receive a token that drives the MCP endpoint. A session id opens the
 * panel only, expires, and dies with the process.
 */
export class PanelSessions {
  private readonly sessions = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? PANEL_SESSION_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** A new session id (256 random bits, base64url). */
  create(): string {
    this.sweep();
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(id, this.now() + this.ttlMs);
    return id;
  }

  /** Whether the id names a live session; compared in constant time against each candidate. */
  isValid(id: string | null): boolean {
    if (id === null || id.length === 0) return false;
    const given = Buffer.from(id);
    let valid = false;
    for (const [known, expires] of this.sessions) {
      const expected = Buffer.from(known);
      if (given.length === expected.length && timingSafeEqual(given, expected) && expires > this.now()) valid = true;
    }
    return valid;
  }

  get ttlSeconds(): number {
    return Math.floor(this.ttlMs / 1000);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, expires] of this.sessions) if (expires <= now) this.sessions.delete(id);
  }
}
