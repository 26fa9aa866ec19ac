import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AccessRecorder, MAX_QUEUED_ACCESS_ENTRIES } from '../../src/core/accessRecorder.ts';
import type { AccessLogEntry } from '../../src/core/domain/records.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { recordingLogger } from '../support/recordingLogger.ts';

/** A store whose recordAccess calls wait until the test lets them finish (or fail). */
class GatedAccessStore {
  readonly calls: AccessLogEntry[][] = [];
  readonly stored: string[] = [];
  private gates: Array<{ release: () => void; fail: (error: Error) => void }> = [];
  gated = true;

  recordAccess(entries: readonly AccessLogEntry[]): Promise<void> {
    this.calls.push([...entries]);
    if (!this.gated) {
      this.stored.push(...entries.map((entry) => entry.access_id));
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.gates.push({
        release: () => {
          this.stored.push(...entries.map((entry) => entry.access_id));
          resolve();
        },
        fail: reject,
      });
    });
  }

  get open(): number {
    return this.gates.length;
  }

  release(): void {
    const gate = this.gates.shift();
    assert.ok(gate, 'a write is in flight');
    gate.release();
  }

  fail(message: string): void {
    const gate = this.gates.shift();
    assert.ok(gate, 'a write is in flight');
    gate.fail(new Error(message));
  }
}

let sequence = 0;
function entry(): AccessLogEntry {
  sequence++;
  return {
    access_id: `acc_${String(sequence).padStart(7, '0')}`,
    memory_id: 'mem_1',
    session_id: null,
    user_id: 'u',
    query_text: 'q',
    similarity_score: 0.5,
    tool: 'recall_memories',
    accessed_at: new Date(0).toISOString(),
  };
}

function recorderOn(store: GatedAccessStore, log = recordingLogger()): AccessRecorder {
  return new AccessRecorder(store as unknown as MemoryStore, log);
}

/** Longer than the recorder's 20 ms delay: one scheduled write has had its chance to start. */
const PAST_DELAY_MS = 40;

describe('AccessRecorder', () => {
  it('writes the entries of several recalls in one write after the delay', async () => {
    const store = new GatedAccessStore();
    store.gated = false;
    const recorder = recorderOn(store);
    const first = entry();
    const second = entry();
    recorder.record([first]);
    recorder.record([second]);
    assert.equal(store.calls.length, 0, 'nothing is written inside the call that queued it');
    await sleep(PAST_DELAY_MS);
    assert.deepEqual(store.calls, [[first, second]]);
  });

  it('keeps one write in flight: what arrives meanwhile goes in a single next write, not one write per delay', async () => {
    const store = new GatedAccessStore();
    const recorder = recorderOn(store);
    recorder.record([entry()]);
    await sleep(PAST_DELAY_MS);
    assert.equal(store.open, 1);
    // Five delays' worth of recalls while the store is slow: the old chain queued five writes.
    const later: string[] = [];
    for (let round = 0; round < 5; round++) {
      const queued = entry();
      later.push(queued.access_id);
      recorder.record([queued]);
      await sleep(PAST_DELAY_MS);
    }
    assert.equal(store.calls.length, 1, 'no second write starts while one is in flight');
    assert.equal(recorder.waiting, 5);
    store.release();
    await sleep(PAST_DELAY_MS);
    assert.equal(store.calls.length, 2);
    assert.deepEqual(
      store.calls[1].map((queued) => queued.access_id),
      later,
    );
    store.release();
    await recorder.flush();
    assert.equal(store.stored.length, 6);
  });

  it('flush resolves only once entries queued behind a write in flight are stored too', async () => {
    const store = new GatedAccessStore();
    const recorder = recorderOn(store);
    const early = entry();
    recorder.record([early]);
    await sleep(PAST_DELAY_MS);
    const late = entry();
    recorder.record([late]);
    let flushed = false;
    const flushing = recorder.flush().then(() => (flushed = true));
    store.release();
    await sleep(5);
    assert.equal(flushed, false, 'the later entry is not stored yet');
    assert.equal(store.open, 1, 'the later entry is being written');
    store.release();
    await flushing;
    assert.deepEqual(store.stored, [early.access_id, late.access_id]);
  });

  it('keeps a failed write for the next one, oldest first, and does not retry on its own', async () => {
    const store = new GatedAccessStore();
    const log = recordingLogger();
    const recorder = recorderOn(store, log);
    const failed = entry();
    recorder.record([failed]);
    await sleep(PAST_DELAY_MS);
    store.fail('disk full');
    await sleep(PAST_DELAY_MS * 2);
    assert.equal(store.calls.length, 1, 'no retry until something is recorded or flushed');
    assert.equal(recorder.lastError?.message, 'disk full');
    assert.ok(log.lines.some((line) => line.startsWith('warn writing the access log failed; will retry: disk full')));
    assert.equal(recorder.waiting, 1);
    const next = entry();
    recorder.record([next]);
    await sleep(PAST_DELAY_MS);
    assert.deepEqual(
      store.calls[1].map((queued) => queued.access_id),
      [failed.access_id, next.access_id],
    );
    store.release();
    await recorder.flush();
    assert.deepEqual(store.stored, [failed.access_id, next.access_id]);
  });

  it(`holds at most ${MAX_QUEUED_ACCESS_ENTRIES} entries while the store refuses writes, dropping and counting the oldest`, async () => {
    const store = new GatedAccessStore();
    const log = recordingLogger();
    const recorder = recorderOn(store, log);
    const oldest = entry();
    recorder.record([oldest]);
    await sleep(PAST_DELAY_MS);
    store.fail('backend down');
    await sleep(5);
    // At the limit exactly: nothing is dropped yet.
    recorder.record(Array.from({ length: MAX_QUEUED_ACCESS_ENTRIES - 1 }, entry));
    assert.equal(recorder.waiting, MAX_QUEUED_ACCESS_ENTRIES);
    assert.equal(recorder.dropped, 0);
    recorder.record([entry(), entry()]);
    assert.equal(recorder.waiting, MAX_QUEUED_ACCESS_ENTRIES);
    assert.equal(recorder.dropped, 2);
    // Retried with the next record, refused again: the warning says how many were dropped.
    const newest = entry();
    recorder.record([newest]);
    assert.equal(recorder.dropped, 3);
    await sleep(5);
    store.fail('backend still down');
    await sleep(5);
    assert.match(
      log.lines.at(-1) ?? '',
      /backend still down \(3 oldest entries dropped so far, past 100000 waiting\)$/,
    );
    store.gated = false;
    await recorder.flush();
    assert.equal(store.stored.length, MAX_QUEUED_ACCESS_ENTRIES);
    assert.ok(!store.stored.includes(oldest.access_id), 'the oldest entry was the one dropped');
    assert.equal(store.stored.at(-1), newest.access_id);
  });
});
