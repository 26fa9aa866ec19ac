import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { readInfo, type OpenedRemoteCore } from '../../src/daemon/daemonLauncher.ts';
import { isRunning, openWindow, removeDaemonDataDir, sqliteConfig } from '../daemon/daemonHarness.ts';
import { rawExchange } from '../daemon/rawSocket.ts';
import { hostileValue } from './hostileInput.ts';

/**
 * Property-based fuzzing of the memory process's socket (issue 28): any local process can connect
 * and send bytes. Malformed, truncated, oversized and out-of-order frames each end that
 * connection at most; the process survives, answers nothing but a hello with the secret, and a
 * window connected all along is served after every run.
 */
const RUNS = 80;
const USER = 'fuzz-window-user';
const IDS = ['mem_00000000-0000-4000-8000-000000000000', 'sess_fuzz'];
const OPS = ['hello', 'call', 'endpoint', 'copy', 'cancel', 'status'] as const;

describe('fuzzing the memory process protocol', () => {
  let dataDir: string;
  let window: OpenedRemoteCore;
  let secret: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fml-daemon-fuzz-'));
    window = await openWindow(dataDir);
    secret = readInfo(window.address.infoFile)!.secret;
    await window.core.storeMemory({
      user_id: USER,
      content: 'The fuzzed process still serves this window',
      memory_category: 'episodic',
      memory_subtype: 'event',
    });
  });
  after(async () => {
    window.connection.close();
    await removeDaemonDataDir(dataDir);
  });

  /** A frame-shaped object with hostile field values: every op, known or not, any id. */
  const frameLike = fc
    .record(
      {
        id: fc.oneof(fc.nat(), hostileValue(IDS)),
        op: fc.oneof(fc.constantFrom(...OPS), fc.string({ maxLength: 10 })),
        hello: fc.oneof(
          hostileValue(IDS),
          fc.record({ secret: fc.oneof(fc.string(), hostileValue(IDS)), config: hostileValue(IDS) }),
        ),
        path: hostileValue(IDS),
        args: hostileValue(IDS),
        request: hostileValue(IDS),
        userId: hostileValue(IDS),
        target: hostileValue(IDS),
      },
      { requiredKeys: ['op'] },
    )
    .map((frame) => JSON.stringify(frame));
  const line = fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 200 }).filter((text) => !text.includes('\n')),
    frameLike,
  );
  /** Malformed lines, one after another, each followed by its newline. */
  const malformed = fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => ({
    kind: 'malformed',
    bytes: lines.map((text) => `${text}\n`).join(''),
    authenticated: false,
  }));
  /** A frame cut off anywhere, the sender then hanging up. */
  const truncated = fc.tuple(frameLike, fc.double({ min: 0, max: 1, noNaN: true })).map(([text, cut]) => ({
    kind: 'truncated',
    bytes: text.slice(0, Math.floor(text.length * cut)),
    authenticated: false,
  }));
  /** More than the pre-hello limit, with or without a newline at the end. */
  const oversized = fc
    .tuple(fc.integer({ min: 17 * 1024, max: 2 * 1024 * 1024 }), fc.boolean())
    .map(([size, newline]) => ({
      kind: 'oversized',
      bytes: `${'{'.repeat(size)}${newline ? '\n' : ''}`,
      authenticated: false,
    }));
  /** Frames in an order the protocol does not allow: anything but hello first, or a second hello. */
  const outOfOrder = fc
    .array(fc.constantFrom(...OPS.filter((op) => op !== 'hello')), { minLength: 1, maxLength: 3 })
    .map((ops) => ({
      kind: 'out-of-order',
      bytes: [
        ...ops.map((op, id) =>
          JSON.stringify({
            id,
            op,
            path: 'stats',
            args: [USER],
            request: 0,
            userId: USER,
            adminTools: false,
            workspaceDir: null,
            target: { kind: 'firebolt' },
          }),
        ),
        JSON.stringify({ id: 9, op: 'hello', hello: { secret, config: sqliteConfig(dataDir) } }),
      ]
        .map((text) => `${text}\n`)
        .join(''),
      authenticated: false,
    }));
  /** A correct hello, then garbage: the client is dropped after its hello answer. */
  const garbageAfterHello = line.map((text) => ({
    kind: 'garbage-after-hello',
    bytes: `${JSON.stringify({ id: 1, op: 'hello', hello: { secret, config: sqliteConfig(dataDir) } })}\n${text}\n`,
    authenticated: true,
  }));

  it(
    'survives every hostile input, answers nothing before a hello with the secret, and keeps serving the connected window',
    { timeout: 300_000 },
    async () => {
      const pid = window.opened.pid;
      await fc.assert(
        fc.asyncProperty(fc.oneof(malformed, truncated, oversized, outOfOrder, garbageAfterHello), async (input) => {
          const outcome = await rawExchange(window.address.socketPath, input.bytes, { settleMs: 150, endAfter: true });
          if (!input.authenticated)
            assert.equal(outcome.answered, '', `${input.kind}: nothing is answered before hello`);
          else assert.doesNotMatch(outcome.answered, /"rssBytes"|"clients"/, 'no status leaked');
          assert.ok(isRunning(pid), `${input.kind}: the process survived`);
          assert.equal((await window.core.stats(USER)).memories, 1, `${input.kind}: the connected window is served`);
        }),
        { numRuns: RUNS, seed: 282_828, endOnFailure: true },
      );
      const status = await window.connection.status();
      assert.equal(status.pid, pid, 'the same process served throughout');
    },
  );
});
