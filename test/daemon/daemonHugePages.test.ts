import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { HUGE_PAGE_MALLOC_TUNABLE, hugePageMallocOf } from '../../src/daemon/hugePageMalloc.ts';
import { daemonDataDirs, isRunning, openWindow, waitUntil } from './daemonHarness.ts';

const onLinux = process.platform === 'linux';
const userTunables = process.env.GLIBC_TUNABLES !== undefined;

function environOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').filter(Boolean);
  return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

/** Mappings the kernel may back with huge pages: with THP mode `madvise`, only those malloc advised. */
function hugePageEligibleMappings(pid: number): number {
  return readFileSync(`/proc/${pid}/smaps`, 'utf8').match(/^THPeligible:\s+1$/gmu)?.length ?? 0;
}

const thpMode = onLinux
  ? /\[(\w+)\]/u.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1]
  : undefined;

describe('the memory process asks malloc for huge pages', () => {
  it('sets the glibc tunable on Linux only, and never over one the user set', () => {
    assert.deepEqual(hugePageMallocOf({}, 'linux'), { GLIBC_TUNABLES: HUGE_PAGE_MALLOC_TUNABLE });
    for (const platform of ['darwin', 'win32', 'freebsd'] as const)
      assert.deepEqual(hugePageMallocOf({}, platform), {});
    assert.deepEqual(hugePageMallocOf({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, 'linux'), {});
    assert.deepEqual(
      hugePageMallocOf({ GLIBC_TUNABLES: '' }, 'linux'),
      {},
      'set to nothing is still the user’s choice',
    );
  });

  const dataDirs = daemonDataDirs('fml-huge-pages-');
  after(() => dataDirs.removeAll());

  async function withProcess(env: Record<string, string>, check: (pid: number) => void): Promise<void> {
    const window = await openWindow(dataDirs.fresh(), { graceMs: 500, env });
    const pid = window.opened.pid;
    try {
      check(pid);
    } finally {
      window.connection.close();
      await waitUntil(() => !isRunning(pid), 'the memory process to exit');
    }
  }

  it(
    'a started memory process runs with the tunable, and malloc advises its mappings',
    {
      skip: !onLinux ? 'Linux only' : userTunables ? 'GLIBC_TUNABLES is set in this environment' : false,
      timeout: 60_000,
    },
    async () => {
      await withProcess({}, (pid) => {
        assert.equal(environOf(pid).get('GLIBC_TUNABLES'), HUGE_PAGE_MALLOC_TUNABLE);
        // THP mode `never` turns the advice off, and the kernel then reports no mapping eligible.
        if (thpMode === 'madvise') assert.ok(hugePageEligibleMappings(pid) > 0, 'malloc advised huge pages');
      });
    },
  );

  it(
    'a memory process started with the user’s GLIBC_TUNABLES keeps theirs',
    { skip: onLinux ? false : 'Linux only', timeout: 60_000 },
    async () => {
      await withProcess({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, (pid) => {
        assert.equal(environOf(pid).get('GLIBC_TUNABLES'), 'glibc.malloc.arena_max=2');
        if (thpMode === 'madvise')
          assert.equal(hugePageEligibleMappings(pid), 0, 'nothing advised without the tunable');
      });
    },
  );
});
