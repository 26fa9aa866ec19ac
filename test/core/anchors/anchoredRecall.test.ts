import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { STATUS_WEIGHT } from '../../../src/core/anchors/anchorFreshness.ts';
import { nodeWorkspaceFiles } from '../../../src/runtime/nodeWorkspaceFiles.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

const LOADER = `export function loadSettings(path: string): Settings {
  const raw = readFileSync(path, 'utf8');
  return normaliseSettings(JSON.parse(raw));
}

export function retryBackoff(attempt: number): number {
  return Math.min(30_000, 2 ** attempt * 100);
}
`;

/** Anchors through the core: stored on store_memory, reported and weighed at recall, marked in context. */
describe('anchored memories in recall and context', () => {
  let root: string;
  let test: TestCore;
  let tick = 0;
  const user = 'anchors';
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    const at = new Date(Date.UTC(2026, 0, 1) + ++tick * 1000);
    utimesSync(join(root, path), at, at);
  };

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'fml-anchored-'));
    write('src/settings/loader.ts', LOADER);
    write(
      'src/net/client.ts',
      'export class HttpClient {\n  send(request: Request): Promise<Response> {\n    return fetch(request);\n  }\n}\n',
    );
    test = await createTestCore({ workspace: nodeWorkspaceFiles(root) });
  });
  afterEach(async () => {
    await test.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  const store = (
    content: string,
    anchors?: Array<{ path: string; symbol?: string; lines?: { start: number; end: number } }>,
  ) =>
    test.core.storeMemory({
      user_id: user,
      content,
      memory_category: 'episodic',
      memory_subtype: 'decision',
      ...(anchors ? { anchors } : {}),
    });

  it('stores the resolved anchor in metadata and its path as a file entity', async () => {
    const { memory_id } = await store('Settings are parsed as JSON and normalised before use.', [
      { path: 'src/settings/loader.ts', symbol: 'loadSettings' },
    ]);
    const [memory] = await test.core.getMemories(user, [memory_id]);
    const [anchor] = memory.metadata.anchors as Array<Record<string, unknown>>;
    assert.equal(anchor.path, 'src/settings/loader.ts');
    assert.deepEqual(anchor.symbol, { name: 'loadSettings', kind: 'function' });
    assert.deepEqual(anchor.lines, { start: 1, end: 4 });
    assert.ok(memory.entities.includes('file:src/settings/loader.ts'));
  });

  it('reports each anchor with its status, and a memory whose code changed ranks lower and says so', async () => {
    const changedId = (
      await store('The settings loader retries JSON parsing twice.', [
        { path: 'src/settings/loader.ts', symbol: 'loadSettings' },
      ])
    ).memory_id;
    const freshId = (
      await store('The settings loader caps the retry backoff.', [
        { path: 'src/settings/loader.ts', symbol: 'retryBackoff' },
      ])
    ).memory_id;
    const before = await test.core.recall({ user_id: user, query: 'settings loader' }, { logAccess: false });
    const scoreBefore = before.memories.find((memory) => memory.memory_id === changedId)!.relevance_score;
    assert.deepEqual(
      before.memories.find((memory) => memory.memory_id === changedId)?.anchors?.map((anchor) => anchor.status),
      ['fresh'],
    );

    write(
      'src/settings/loader.ts',
      LOADER.replace(
        /export function loadSettings[\s\S]*?\n}\n/,
        'export async function loadSettings(url: URL): Promise<Settings> {\n  const response = await fetch(url, { cache: "no-store" });\n  return response.json();\n}\n',
      ),
    );
    const after = await test.core.recall({ user_id: user, query: 'settings loader' }, { logAccess: false });
    const changed = after.memories.find((memory) => memory.memory_id === changedId)!;
    assert.equal(changed.anchors?.[0].status, 'changed');
    assert.ok(
      Math.abs(changed.relevance_score - scoreBefore * STATUS_WEIGHT.changed) < 0.002,
      `${changed.relevance_score} vs ${scoreBefore} × ${STATUS_WEIGHT.changed}`,
    );
    assert.deepEqual(
      after.memories.map((memory) => memory.memory_id),
      [freshId, changedId],
      'the stale memory ranks below the fresh one',
    );

    const session = await test.core.initSession({ user_id: user });
    const context = await test.core.getRelevantContext({
      user_id: user,
      session_id: session.session_id,
      query: 'settings loader',
      token_budget: 2000,
    });
    const item = context.context_items.find((candidate) => candidate.memory_id === changedId)!;
    assert.match(item.content, /refers to code changed since it was stored \(src\/settings\/loader\.ts loadSettings\)/);
    assert.equal(item.anchors?.[0].status, 'changed');
    const fresh = context.context_items.find((candidate) => candidate.memory_id === freshId)!;
    assert.doesNotMatch(fresh.content, /refers to code/);
  });

  it('a memory whose code changed gives up the only place to a fresh one it outranked (limit 1)', async () => {
    const anchoredTo = (symbol: string, importance: number) =>
      test.core.storeMemory({
        user_id: user,
        content: `The settings loader handles ${symbol}.`,
        memory_category: 'episodic',
        memory_subtype: 'decision',
        importance,
        anchors: [{ path: 'src/settings/loader.ts', symbol }],
      });
    const changedId = (await anchoredTo('loadSettings', 0.9)).memory_id;
    const freshId = (await anchoredTo('retryBackoff', 0.5)).memory_id;
    const first = async () =>
      (
        await test.core.recall({ user_id: user, query: 'settings loader', limit: 1 }, { logAccess: false })
      ).memories.map((memory) => memory.memory_id);
    assert.deepEqual(await first(), [changedId], 'the more important memory answers while its code is as stored');
    write(
      'src/settings/loader.ts',
      LOADER.replace(
        /export function loadSettings[\s\S]*?\n}\n/,
        'export async function loadSettings(url: URL): Promise<Settings> {\n  return (await fetch(url)).json();\n}\n',
      ),
    );
    assert.deepEqual(await first(), [freshId], 'its anchors were checked among the candidates, not only in the answer');
  });

  it('a gone anchor ranks lowest, is marked, and the memory is never deleted', async () => {
    const { memory_id } = await store('The HTTP client sends requests with fetch.', [
      { path: 'src/net/client.ts', symbol: 'HttpClient' },
    ]);
    unlinkSync(join(root, 'src/net/client.ts'));
    const recalled = await test.core.recall({ user_id: user, query: 'HTTP client fetch' }, { logAccess: false });
    assert.equal(recalled.memories[0].memory_id, memory_id);
    assert.equal(recalled.memories[0].anchors?.[0].status, 'gone');
    const [memory] = await test.core.getMemories(user, [memory_id]);
    assert.equal(memory.deleted_at, null);
  });

  it('filters by path: every memory about the file, whatever the query words', async () => {
    const about = (
      await store('Settings come from one JSON file.', [
        { path: 'src/settings/loader.ts', lines: { start: 1, end: 4 } },
      ])
    ).memory_id;
    await store('The HTTP client has no retry of its own.', [{ path: 'src/net/client.ts', symbol: 'HttpClient' }]);
    const result = await test.core.recall(
      { user_id: user, query: 'what do we know', path: 'src/settings/loader.ts' },
      { logAccess: false },
    );
    assert.deepEqual(
      result.memories.map((memory) => memory.memory_id),
      [about],
    );
    await assert.rejects(test.core.recall({ user_id: user, query: 'x', path: '../etc/passwd' }), (error: unknown) =>
      MemoryError.is(error, 'INVALID_INPUT'),
    );
  });

  it('anchors content that names an existing file or a declared symbol, and nothing that does not exist', async () => {
    // Symbols are looked up in the workspace index, which a server builds in the background at start.
    await test.core.anchors!.warmUp();
    const named = await store('Always call `retryBackoff` before reconnecting; see src/net/client.ts.');
    const [memory] = await test.core.getMemories(user, [named.memory_id]);
    const anchors = memory.metadata.anchors as Array<{ path: string; symbol?: { name: string } }>;
    assert.deepEqual(
      anchors.map((anchor) => [anchor.path, anchor.symbol?.name ?? null]),
      [
        ['src/net/client.ts', null],
        ['src/settings/loader.ts', 'retryBackoff'],
      ],
    );
    const none = await store('The `doesNotExist` helper lives in src/missing.ts.');
    const [plain] = await test.core.getMemories(user, [none.memory_id]);
    assert.equal(plain.metadata.anchors, undefined);
  });

  it('refuses anchors it cannot resolve, and anchors without a workspace', async () => {
    await assert.rejects(
      store('x about a missing file', [{ path: 'src/nope.ts', lines: { start: 1, end: 1 } }]),
      /no file src\/nope\.ts/,
    );
    const bare = await createTestCore();
    try {
      await assert.rejects(
        bare.core.storeMemory({
          user_id: user,
          content: 'about the loader',
          memory_category: 'semantic',
          memory_subtype: 'project',
          anchors: [{ path: 'src/settings/loader.ts', symbol: 'loadSettings' }],
        }),
        (error: unknown) => MemoryError.is(error, 'CONFIGURATION_ERROR') && /--workspace/.test(error.message),
      );
    } finally {
      await bare.cleanup();
    }
  });
});
