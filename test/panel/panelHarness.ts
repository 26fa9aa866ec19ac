import { startHttpServer, type RunningHttpServer } from '../../src/http/httpServer.ts';
import { createPanelRoutes, type PanelRoutes } from '../../src/panel/httpPanelRoutes.ts';
import { PanelController } from '../../src/panel/panelController.ts';
import type { PanelDeps } from '../../src/panel/panelDeps.ts';
import type { MemoryCore } from '../../src/core/memoryCore.ts';
import type { MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';
import { join } from 'node:path';

export const USER = 'panel-user';
export const SESSION = 'panel-session';
export const TOKEN = 'panel-test-token-0123456789';
export const ASSETS_DIR = join(import.meta.dirname, '..', '..', 'dist', 'webview');

export interface PanelHarness {
  core: MemoryCore;
  /** The store under the core, for assertions on what is really stored. */
  store: MemoryStore;
  controller: PanelController;
  server: RunningHttpServer;
  routes: PanelRoutes;
  /** The URL a user opens: carries the token once, then a cookie takes over. */
  pageUrl: string;
  close(): Promise<void>;
}

/** The real core on a temporary SQLite store, served by the real HTTP server with the panel routes. */
export async function startPanelHarness(
  options: { pollMs?: number; testCore?: TestCore; runEditorAction?: PanelDeps['runEditorAction'] } = {},
): Promise<PanelHarness & { testCore: TestCore }> {
  const testCore = options.testCore ?? (await createTestCore());
  const core = testCore.core;
  const controller = new PanelController(
    {
      core: core,
      userId: () => USER,
      sessionId: () => SESSION,
      host: 'browser',
      log: () => undefined,
      ...(options.runEditorAction ? { runEditorAction: options.runEditorAction } : {}),
    },
    options.pollMs !== undefined ? { pollMs: options.pollMs } : {},
  );
  const routes = createPanelRoutes({ controller, token: TOKEN, assetsDir: ASSETS_DIR, heartbeatMs: 1000 });
  const server = await startHttpServer(
    { core, defaultUserId: USER },
    { port: 0, token: TOKEN, extraRoutes: routes.handle },
  );
  return {
    core,
    store: testCore.store,
    controller,
    server,
    routes,
    testCore,
    pageUrl: `${server.url}/?token=${TOKEN}`,
    close: async () => {
      routes.dispose();
      controller.dispose();
      await server.close();
      await testCore.cleanup();
    },
  };
}

/** A small, varied set of memories and a working-memory session to exercise every view. */
export async function seedMemories(core: MemoryCore): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const store = async (
    key: string,
    content: string,
    category: 'episodic' | 'semantic' | 'procedural' | 'preference',
    subtype: string,
    extra: Record<string, unknown> = {},
  ): Promise<void> => {
    const result = await core.storeMemory({
      user_id: USER,
      content,
      memory_category: category,
      memory_subtype: subtype,
      ...extra,
    });
    ids[key] = result.memory_id;
  };
  await store(
    'postgres',
    'We decided to use PostgreSQL 16 for the billing service because it supports logical replication.',
    'episodic',
    'decision',
    { entities: ['PostgreSQL', 'billing-service'], importance: 0.9 },
  );
  await store('tabs', 'The user prefers tabs over spaces in TypeScript files.', 'preference', 'style', {
    entities: ['TypeScript'],
    metadata: { tags: ['formatting'] },
  });
  await store(
    'deploy',
    'To deploy the web app run npm run build and then fly deploy from the repository root.',
    'procedural',
    'workflow',
    { entities: ['fly.io'], importance: 0.7 },
  );
  await store('redis', 'The session cache runs on Redis 7 with a 15 minute TTL.', 'semantic', 'project', {
    entities: ['Redis'],
    session_id: SESSION,
  });
  await store(
    'flaky',
    'The integration test for invoices was flaky because of a race in the retry queue; fixed by awaiting the drain.',
    'procedural',
    'debugging',
    { entities: ['retry-queue'] },
  );
  await store('kafka', 'Event ingestion uses Kafka with 12 partitions per topic.', 'semantic', 'project', {
    entities: ['Kafka'],
  });
  await store(
    'postgres2',
    'Billing moved from PostgreSQL 16 to PostgreSQL 17 in March for faster vacuum.',
    'episodic',
    'decision',
    { entities: ['PostgreSQL', 'billing-service'], supersedes: ids.postgres },
  );
  for (let index = 0; index < 40; index++) {
    await store(
      `note${index}`,
      `Observation ${index}: module ${index % 7} owns the ${['parser', 'renderer', 'cache', 'router', 'scheduler'][index % 5]} component and its tests (note ${index}).`,
      'semantic',
      'entity',
      { importance: (index % 10) / 10 },
    );
  }
  await core.initSession({ session_id: SESSION, user_id: USER, config: { max_tokens: 2000 } });
  await core.addToWorkingMemory({
    session_id: SESSION,
    content: 'Task: migrate the invoice exporter to the new billing schema.',
    content_type: 'task_state',
  });
  await core.addToWorkingMemory({
    session_id: SESSION,
    content: 'User asked to keep the CSV column order unchanged for downstream consumers.',
    content_type: 'message',
  });
  await core.addToWorkingMemory({
    session_id: SESSION,
    content: 'Scratch: exporter lives in src/billing/export.ts; tests in test/billing.',
    content_type: 'scratchpad',
  });
  return ids;
}
