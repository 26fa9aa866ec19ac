import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { EXPORT_FORMAT } from '../../src/core/portability/exportFormat.ts';
import { isCalendarTimestamp } from '../../src/core/util/time.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/** Issue 28.9: impossible dates are refused as calendar dates wherever they enter. */
const VALID = [
  '2024-02-29T10:00:00Z',
  '2000-02-29',
  '2024-04-30T00:00:00Z',
  '2024-01-31T23:59:59.999Z',
  '2024-12-31T23:59:59+02:00',
  '2026-01-03T14:30Z',
];
const IMPOSSIBLE = [
  '2024-02-30T10:00:00Z',
  '2023-02-29T10:00:00Z',
  '1900-02-29',
  '2024-04-31T00:00:00Z',
  '2024-06-31',
  '2024-13-01T00:00:00Z',
  '2024-00-10',
  '2024-01-00',
  '2024-01-01T24:00:00Z',
  '2024-01-01T10:60:00Z',
];

describe('impossible dates are refused everywhere they enter (issue 28.9)', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core, defaultUserId: 'dates', adminTools: true }));
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('the one validator: leap years at the edge and month ends', () => {
    for (const value of VALID) assert.equal(isCalendarTimestamp(value), true, value);
    for (const value of IMPOSSIBLE) assert.equal(isCalendarTimestamp(value), false, value);
  });

  it('store_memory refuses an event_time that is no calendar date, and takes 29 February of a leap year', async () => {
    for (const value of IMPOSSIBLE) {
      const error = await callError(client, 'store_memory', {
        content: `Release happened at ${value}`,
        memory_category: 'episodic',
        memory_subtype: 'event',
        event_time: value,
      });
      assert.equal(error.code, 'INVALID_INPUT', value);
      assert.match(error.message, /event_time/, value);
    }
    const stored = await callOk<{ memory_id: string }>(client, 'store_memory', {
      content: 'The leap-day release happened',
      memory_category: 'episodic',
      memory_subtype: 'event',
      event_time: '2024-02-29T10:00:00Z',
    });
    assert.ok(stored.memory_id);
  });

  it('recall_memories refuses an impossible time range bound', async () => {
    const error = await callError(client, 'recall_memories', {
      query: 'releases',
      time_range: { after: '2023-02-29T00:00:00Z' },
    });
    assert.equal(error.code, 'INVALID_INPUT');
  });

  it('import_memories refuses a record with an impossible date, naming the field', async () => {
    for (const [field, value] of [
      ['created_at', '2024-02-30T10:00:00Z'],
      ['event_time', '2023-02-29T10:00:00Z'],
    ] as const) {
      const error = await callError(client, 'import_memories', {
        user_id: 'dates',
        data: {
          format: EXPORT_FORMAT,
          format_version: 1,
          memories: [
            {
              memory_id: 'mem_dated',
              content: 'An imported event',
              memory_category: 'episodic',
              memory_subtype: 'event',
              created_at: '2024-02-29T10:00:00Z',
              [field]: value,
            },
          ],
        },
      });
      assert.equal(error.code, 'INVALID_INPUT', field);
      assert.match(error.message, new RegExp(field), field);
    }
  });
});
