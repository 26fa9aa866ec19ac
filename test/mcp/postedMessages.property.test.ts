import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { JSONRPCMessageSchema } from '../../src/mcp/mcpSdk.ts';
import { parsePostedMessages } from '../../src/mcp/jsonRpcMessages.ts';

/**
 * parsePostedMessages checks the common request shape by hand before the SDK's message schema.
 * The hand check must never accept what the schema refuses (the SDK's protocol layer would drop
 * that message and its POST would never be answered) nor refuse what the schema accepts.
 */
const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant(2 ** 53),
  fc.constant(1.5),
  fc.string({ maxLength: 6 }),
  fc.constant('2.0'),
  fc.constant([]),
  fc.constant({}),
);
const params = fc.oneof(
  value,
  fc.dictionary(
    fc.constantFrom('name', 'arguments', '_meta', 'cursor', 'task'),
    fc.oneof(value, fc.dictionary(fc.constantFrom('progressToken', 'x'), value)),
  ),
);
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), value),
    id: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), value),
    method: fc.oneof(fc.constantFrom('tools/call', 'tools/list', 'notifications/cancelled'), value),
    params,
    result: fc.oneof(fc.constant({}), value),
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string({ maxLength: 4 }) }), value),
    extra: value,
  },
  { requiredKeys: [] },
);

function accepted(item: unknown): boolean {
  try {
    parsePostedMessages(item);
    return true;
  } catch (error) {
    assert.ok(MemoryError.is(error) && error.code === 'INVALID_INPUT', String(error));
    return false;
  }
}

describe('posted JSON-RPC messages', () => {
  it('accepts exactly the messages the SDK schema accepts', () => {
    fc.assert(
      fc.property(message, (item) => {
        assert.equal(accepted(item), JSONRPCMessageSchema.safeParse(item).success, JSON.stringify(item));
      }),
      { numRuns: 5000, seed: 20261129 },
    );
  });

  it('refuses each way a request can be almost plain', () => {
    const plain = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
    assert.equal(accepted(plain), true);
    for (const nearMiss of [
      { ...plain, jsonrpc: '1.0' },
      { ...plain, id: 1.5 },
      { ...plain, id: 2 ** 53 },
      { ...plain, id: null },
      { ...plain, method: 7 },
      { ...plain, params: [] },
      { ...plain, params: null },
      { ...plain, params: { _meta: 'not an object' } },
      { ...plain, other: true },
    ])
      assert.equal(accepted(nearMiss), false, JSON.stringify(nearMiss));
    // A request with a well-formed _meta is still a request: the schema says so, not the hand check.
    assert.equal(accepted({ ...plain, params: { _meta: { progressToken: 'p' } } }), true);
  });
});
