import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MaintenanceReport } from '../../../src/core/lifecycle/maintenance.ts';
import { createTestCore } from '../../support/testCore.ts';

describe('MemoryCore.startMaintenance', () => {
  it('runs daily maintenance for the given users on its timer, and close stops it', async () => {
    const test = await createTestCore();
    try {
      await test.core.longTerm.store({ user_id: 'm', content: 'The cache TTL is five minutes', memory_category: 'semantic', memory_subtype: 'project' });
      const reports: MaintenanceReport[] = [];
      const scheduler = test.core.startMaintenance({ users: () => ['m'], intervalMs: 20, onReport: (report) => reports.push(report) });
      for (let attempt = 0; attempt < 100 && reports.length === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(reports.length > 0, 'a run reported');
      scheduler.stop();
    } finally {
      await test.cleanup();
    }
  });
});
