import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { daemonAddressOf } from '../../src/daemon/daemonAddress.ts';
import { DaemonConnection } from '../../src/daemon/daemonConnection.ts';
import { readInfo } from '../../src/daemon/daemonLauncher.ts';
import { DaemonServer } from '../../src/daemon/daemonServer.ts';
import { acquireTakeoverLock } from '../../src/daemon/takeoverLock.ts';
import { sqliteConfig } from './daemonHarness.ts';

/** A pid no process has: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('a killed memory process left its socket file: the next one takes the address over', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fml-takeover-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'two processes starting at once over a dead socket: exactly one listens, and the info file names it',
    { skip: process.platform === 'win32' ? 'named pipes leave no socket file behind' : false, timeout: 60_000 },
    async () => {
      const dataDir = join(dir, 'data');
      const address = daemonAddressOf(dataDir);
      mkdirSync(address.socketDir!, { recursive: true, mode: 0o700 });
      // A process that listened and was killed with SIGKILL: its socket file stays, nobody answers on it.
      spawnSync(process.execPath, [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(address.socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
      ]);
      assert.ok(existsSync(address.socketPath), 'the killed process left its socket file');

      const servers = [0, 1].map(
        () => new DaemonServer({ address, graceMs: 60_000, log: () => {}, onIdleExit: () => {} }),
      );
      try {
        const listening = await Promise.all(servers.map((server) => server.listen()));
        assert.deepEqual(listening.filter(Boolean).length, 1, `exactly one listens, got ${JSON.stringify(listening)}`);
        assert.ok(!existsSync(`${address.infoFile}.takeover`), 'the takeover lock is released');
        // A window reads the info file and is let in by the process on the socket.
        const info = readInfo(address.infoFile);
        assert.ok(info);
        const connection = await DaemonConnection.open(address.socketPath);
        try {
          const opened = await connection.hello({ secret: info.secret, config: sqliteConfig(dataDir) });
          assert.equal(opened.pid, process.pid);
        } finally {
          connection.close();
        }
      } finally {
        for (const server of servers) await server.close();
      }
    },
  );

  it('the takeover lock: one holder at a time; a dead or stale holder’s lock is taken', () => {
    const lockFile = join(dir, 'daemon.json.takeover');
    const release = acquireTakeoverLock(lockFile);
    assert.ok(release, 'a free lock is taken');
    assert.equal(readFileSync(lockFile, 'utf8'), String(process.pid));
    assert.equal(acquireTakeoverLock(lockFile), null, 'a live holder keeps it');
    release();
    assert.ok(!existsSync(lockFile), 'released, the file is gone');

    // Its holder was killed inside the takeover: the lock is a leftover.
    writeFileSync(lockFile, String(deadPid()));
    const afterDeath = acquireTakeoverLock(lockFile);
    assert.ok(afterDeath, 'a dead holder’s lock is taken');
    afterDeath();

    // A live pid in a lock older than any takeover takes: the pid was reused, the lock is a leftover.
    writeFileSync(lockFile, String(process.ppid));
    assert.equal(acquireTakeoverLock(lockFile), null, 'a fresh lock of a live pid is held');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile, old, old);
    const afterReuse = acquireTakeoverLock(lockFile);
    assert.ok(afterReuse, 'a lock older than any takeover is taken');
    afterReuse();

    // Created but not written yet: its writer is alive.
    writeFileSync(lockFile, '');
    assert.equal(acquireTakeoverLock(lockFile), null);
  });
});
