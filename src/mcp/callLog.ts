import { LIMITS } from '../core/validation.ts';

/** Recent tool calls and errors of this server process, for stats and the panel's overview. */
export interface CallRecord {
  tool: string;
  ok: boolean;
  ms: number;
  at?: string;
  error?: { code: string; message: string };
  /** The user the call acted for, so per-user tools show each user only their own calls. */
  user_id?: string;
}

interface Slot {
  call: CallRecord;
  atMs: number;
}

/**
 * A ring of the last `capacity` calls. Every tool call is recorded and few are ever read, so
 * recording only stores the call and the clock; the ISO time and the rounding happen on reading.
 */
export class CallLog {
  private readonly slots: Array<Slot | undefined>;
  private readonly capacity: number;
  /** Calls recorded so far; the newest is at (written - 1) % capacity. */
  private written = 0;

  constructor(capacity: number = LIMITS.recentCalls) {
    this.capacity = capacity;
    this.slots = new Array<Slot | undefined>(capacity);
  }

  record(call: CallRecord): void {
    this.slots[this.written % this.capacity] = { call, atMs: Date.now() };
    this.written++;
  }

  /** The newest calls first. */
  recent(limit = 50): CallRecord[] {
    return this.newestFirst(limit, () => true);
  }

  recentErrors(limit = 20): CallRecord[] {
    return this.newestFirst(limit, (call) => !call.ok);
  }

  private newestFirst(limit: number, keep: (call: CallRecord) => boolean): CallRecord[] {
    const out: CallRecord[] = [];
    const held = Math.min(this.written, this.capacity);
    for (let back = 1; back <= held && out.length < limit; back++) {
      const slot = this.slots[(this.written - back) % this.capacity]!;
      if (!keep(slot.call)) continue;
      out.push({ ...slot.call, at: new Date(slot.atMs).toISOString(), ms: Math.round(slot.call.ms * 100) / 100 });
    }
    return out;
  }
}
