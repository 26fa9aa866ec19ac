import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CaptureSink, type Timers } from '../../../src/core/editor/captureSink.ts';

function fakeTimers(): Timers & { fire(): void } {
  const queue = new Map<number, () => void>();
  let next = 0;
  return {
    set(callback) {
      queue.set(++next, callback);
      return next;
    },
    clear(handle) {
      queue.delete(handle as number);
    },
    fire() {
      const callbacks = [...queue.values()];
      queue.clear();
      for (const callback of callbacks) callback();
    },
  };
}

function setup() {
  const writes: Array<[string, string | null]> = [];
  const skipped: string[] = [];
  const timers = fakeTimers();
  const sink = new CaptureSink({
    writer: { write: async (slot, content) => void writes.push([slot, content]) },
    delayMs: 500,
    timers,
    onSkip: (slot, reason) => skipped.push(`${slot}: ${reason}`),
  });
  return { sink, writes, skipped, timers };
}

test('a burst of submits to one slot costs one write of the latest value', async () => {
  const { sink, writes, timers } = setup();
  sink.submit('active', 'a');
  sink.submit('active', 'b');
  sink.submit('diagnostics', 'd');
  sink.submit('active', 'c');
  timers.fire();
  await sink.flush();
  assert.deepEqual(writes, [
    ['diagnostics', 'd'],
    ['active', 'c'],
  ]);
});

test('unchanged content is not written again; a change and a removal are', async () => {
  const { sink, writes } = setup();
  sink.submit('git', 'main');
  await sink.flush();
  sink.submit('git', 'main');
  await sink.flush();
  sink.submit('git', 'feature');
  await sink.flush();
  sink.submit('git', null);
  await sink.flush();
  sink.submit('git', null);
  await sink.flush();
  assert.deepEqual(writes, [
    ['git', 'main'],
    ['git', 'feature'],
    ['git', null],
  ]);
});

test('removing a slot that was never written writes nothing; reset forces a rewrite', async () => {
  const { sink, writes } = setup();
  sink.submit('task', null);
  await sink.flush();
  sink.submit('task', 'failed');
  await sink.flush();
  sink.reset();
  sink.submit('task', 'failed');
  await sink.flush();
  assert.deepEqual(writes, [
    ['task', 'failed'],
    ['task', 'failed'],
  ]);
});

test('content flagged by the secret detector never reaches the writer', async () => {
  const { sink, writes, skipped } = setup();
  sink.submit('active', ['Selected: const k = "sk-', 'abcdefghijklmnopqrstuvwxyz0123"'].join(''));
  await sink.flush();
  assert.deepEqual(writes, []);
  assert.deepEqual(skipped, ['active: the secret detector flagged the content']);
});

test('a failed write is reported and retried on the next submit', async () => {
  const errors: string[] = [];
  let fail = true;
  const written: string[] = [];
  const sink = new CaptureSink({
    writer: {
      write: async (_slot, content) => {
        if (fail) throw new Error('store offline');
        written.push(String(content));
      },
    },
    delayMs: 0,
    timers: fakeTimers(),
    onError: (slot, error) => errors.push(`${slot}: ${(error as Error).message}`),
  });
  sink.submit('active', 'x');
  await sink.flush();
  fail = false;
  sink.submit('active', 'x');
  await sink.flush();
  assert.deepEqual(errors, ['active: store offline']);
  assert.deepEqual(written, ['x']);
});

test('forget makes a slot whose item disappeared write again; writtenSlots lists live slots', async () => {
  const { sink, writes } = setup();
  sink.submit('active', 'a');
  sink.submit('git', 'main');
  await sink.flush();
  sink.submit('git', null);
  await sink.flush();
  assert.deepEqual(sink.writtenSlots(), ['active']);
  sink.forget('active');
  sink.submit('active', 'a');
  await sink.flush();
  assert.deepEqual(writes, [
    ['active', 'a'],
    ['git', 'main'],
    ['git', null],
    ['active', 'a'],
  ]);
});

test('a hold keeps writes pending until released, then writes the latest value once', async () => {
  const { sink, writes, timers } = setup();
  const release = sink.hold();
  sink.submit('active', 'a');
  timers.fire();
  sink.submit('active', 'b');
  timers.fire();
  await sink.flush();
  assert.deepEqual(writes, []);
  release();
  release();
  await sink.flush();
  assert.deepEqual(writes, [['active', 'b']]);
});
