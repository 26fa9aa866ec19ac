import assert from 'node:assert/strict';
import type { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * The OpenSpec endpoints are a second write surface beside the MCP tools (README "OpenSpec
 * knowledge provider": "the bound user and configured layers, UNAUTHORIZED otherwise"). Every write
 * endpoint the discovery document lists is checked against every binding, as
 * writeBindings.test.ts does for the tools: another user, another project (also one opened with
 * --read-project), a team the server was not configured for. Each must be refused (403, or a failed
 * operation in a batch) with nothing changed anywhere. An endpoint the discovery adds fails the
 * first test until it is classified here.
 */

const TOKEN = 'openspec-bindings-token-0123456789abcdef0123';
const BASE = '/openspec/v1/knowledge';
const ALICE = 'github.com/alice/app';
const BOB = 'github.com/bob/private';
const READS = new Set(['discovery', 'query', 'stream', 'metadata']);

interface Target {
  /** Identifiers (and layer) that name what alice's server must not write to. */
  ids: Record<string, string>;
  layer?: string;
  /** A memory id there, for the routes on one entry. */
  memory: string;
}

/** One request per write endpoint, aimed at `target`. */
const WRITES: Record<string, (target: Target) => { method: string; path: string; body?: unknown }> = {
  create: (target) => ({
    method: 'POST',
    path: '/create',
    body: { content: 'Written through a server bound to alice', layer: target.layer, identifiers: target.ids },
  }),
  update: (target) => ({
    method: 'PUT',
    path: `/${target.memory}`,
    body: { content: 'Rewritten through a server bound to alice', layer: target.layer, identifiers: target.ids },
  }),
  delete: (target) => ({
    method: 'DELETE',
    path: `/${target.memory}?${new URLSearchParams({ ...(target.layer ? { layer: target.layer } : {}), ...target.ids })}`,
  }),
  batch: (target) => ({
    method: 'POST',
    path: '/batch',
    body: {
      operations: [
        { operation: 'create', input: { content: 'Batch write', layer: target.layer, identifiers: target.ids } },
        {
          operation: 'update',
          id: target.memory,
          input: { content: 'Batch rewrite' },
          layer: target.layer,
          identifiers: target.ids,
        },
        { operation: 'delete', id: target.memory, layer: target.layer, identifiers: target.ids },
      ],
    },
  }),
};

describe('every OpenSpec write endpoint against every binding of the server', () => {
  let test: TestCore;
  let db: DatabaseSync;
  const servers: Record<'bound' | 'reading', RunningHttpServer> = {} as never;
  const targets: Record<string, Target> = {};

  const everything = (): string => {
    const tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as Array<{ name: string }>
    ).map((row) => row.name);
    return JSON.stringify(
      tables.map((table) => [
        table,
        db
          .prepare(`SELECT * FROM "${table}"`)
          .all()
          .map((row) => JSON.stringify(row))
          .sort(),
      ]),
    );
  };

  before(async () => {
    test = await createTestCore({ defaultProjectId: ALICE, config: { layerDefaults: { team_id: 'alpha' } } });
    db = (test.store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    servers.bound = await startHttpServer({ core: test.core, defaultUserId: 'alice' }, { port: 0, token: TOKEN });
    servers.reading = await startHttpServer(
      { core: test.core, defaultUserId: 'alice', readableProjectIds: [BOB] },
      { port: 0, token: TOKEN },
    );
    const { client, close } = await connectClient({ core: test.core });
    const store = async (args: Record<string, unknown>) =>
      (
        await callOk<{ memory_id: string }>(client, 'store_memory', {
          memory_category: 'episodic',
          memory_subtype: 'decision',
          ...args,
        })
      ).memory_id;
    targets['another user'] = {
      ids: { userId: 'bob' },
      memory: await store({ user_id: 'bob', content: 'Bob decided the vault rotates on Monday' }),
    };
    targets['another project'] = {
      ids: { projectId: BOB },
      layer: 'project',
      memory: await store({
        user_id: 'bob',
        layer: 'project',
        project_id: BOB,
        content: 'Bob decided the API moves to gRPC',
      }),
    };
    targets['a team it was not configured for'] = {
      ids: { teamId: 'beta' },
      layer: 'team',
      memory: await store({ user_id: 'bob', layer: 'team', team_id: 'beta', content: 'Team beta ships on Fridays' }),
    };
    await close();
  });
  after(async () => {
    await servers.bound.close();
    await servers.reading.close();
    await test.cleanup();
  });

  const send = (server: RunningHttpServer, request: { method: string; path: string; body?: unknown }) =>
    fetch(`${server.url}${BASE}${request.path}`, {
      method: request.method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });

  it('classifies every endpoint of the discovery document as a read or a checked write', async () => {
    const discovery = (await (await send(servers.bound, { method: 'GET', path: '' })).json()) as {
      endpoints: Record<string, string>;
    };
    const names = Object.keys(discovery.endpoints);
    assert.ok(names.length >= 8, names.join());
    assert.deepEqual(
      names.filter((name) => !READS.has(name) && !(name in WRITES)),
      [],
      'endpoints that are neither a known read nor a write checked here',
    );
  });

  for (const endpoint of Object.keys(WRITES)) {
    it(`${endpoint}: refuses another user, another project (also a readable one) and an unconfigured team, changing nothing`, async () => {
      for (const [binding, server] of Object.entries(servers)) {
        for (const [name, target] of Object.entries(targets)) {
          const before = everything();
          const response = await send(server, WRITES[endpoint]!(target));
          const text = await response.text();
          if (endpoint === 'batch') {
            const result = JSON.parse(text) as { results: Array<{ ok: boolean; error?: { code: string } }> };
            assert.ok(
              result.results.every((entry) => !entry.ok && entry.error?.code === 'UNAUTHORIZED'),
              `batch on the ${binding} server aimed at ${name}: ${text.slice(0, 300)}`,
            );
          } else {
            assert.equal(
              response.status,
              403,
              `${endpoint} on the ${binding} server aimed at ${name}: ${text.slice(0, 300)}`,
            );
            assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'UNAUTHORIZED');
          }
          assert.equal(everything(), before, `${endpoint} on the ${binding} server aimed at ${name} changed the store`);
        }
      }
    });
  }

  it('the same writes in its own project and configured team are accepted', async () => {
    const own: Array<Omit<Target, 'memory'>> = [
      { ids: { projectId: ALICE }, layer: 'project' },
      { ids: { teamId: 'alpha' }, layer: 'team' },
      { ids: {} },
    ];
    for (const target of own) {
      const created = await send(servers.bound, WRITES.create!({ ...target, memory: '' }));
      assert.equal(created.status, 201, await created.clone().text());
      const { memory } = (await created.json()) as { memory: { id: string } };
      const entry = { ...target, memory: memory.id };
      assert.equal((await send(servers.bound, WRITES.update!(entry))).status, 200);
      assert.equal((await send(servers.bound, WRITES.delete!(entry))).status, 200);
    }
  });
});
