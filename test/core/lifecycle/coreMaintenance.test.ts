import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MaintenanceReport } from '../../../src/core/lifecycle/maintenance.ts';
import { createTestCore } from '../../support/testCore.ts';

describe('MemoryCore.startMaintenance', () => {
  it('runs daily maintenance for the given users on its timer; stop and close stop the timer', async (t) => {
    const test = await createTestCore();
    try {
      await test.core.storeMemory({
        user_id: 'm',
        content: 'The cache TTL is five minutes',
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
      t.mock.timers.enable({ apis: ['setInterval'] });
      const reports: MaintenanceReport[] = [];
      // users() is called as each run starts, so its call count is the number of runs the timer began.
      let runsStarted = 0;
      const users = () => {
        runsStarted += 1;
        return ['m'];
      };
      const scheduler = test.core.startMaintenance({
        users,
        intervalMs: 20,
        onReport: (report) => reports.push(report),
      });
      assert.equal(runsStarted, 0, 'nothing runs before the first interval');
      t.mock.timers.tick(20);
      assert.equal(runsStarted, 1, 'the timer started a run');
      await scheduler.runOnce(); // joins the run in progress instead of starting another
      assert.equal(runsStarted, 1);
      assert.equal(reports.length, 1);
      assert.equal(reports[0].user_id, 'm');

      scheduler.stop();
      assert.equal(scheduler.started, false);
      t.mock.timers.tick(20 * 10);
      assert.equal(runsStarted, 1, 'no run after stop()');

      const restarted = test.core.startMaintenance({ users, intervalMs: 20 });
      assert.equal(restarted.started, true);
      await test.core.close();
      assert.equal(restarted.started, false, 'close() stops the timer');
      t.mock.timers.tick(20 * 10);
      assert.equal(runsStarted, 1, 'no run after close()');
      await test.core.open();
    } finally {
      await test.cleanup();
    }
  });
});
