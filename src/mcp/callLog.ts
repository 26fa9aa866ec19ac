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

export class CallLog {
  private readonly calls: CallRecord[] = [];
  private readonly capacity: number;

  constructor(capacity = 200) {
    this.capacity = capacity;
  }

  record(call: CallRecord): void {
    this.calls.push({ ...call, at: new Date().toISOString(), ms: Math.round(call.ms * 100) / 100 });
    if (this.calls.length > this.capacity) this.calls.shift();
  }

  recent(limit = 50): CallRecord[] {
    return this.calls.slice(-limit).reverse();
  }

  recentErrors(limit = 20): CallRecord[] {
    return this.calls.filter((call) => !call.ok).slice(-limit).reverse();
  }
}
