import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Disposable } from '../../src/panel/changeWatcher.ts';
import { PanelController } from '../../src/panel/panelController.ts';
import { connectWebview, type WebviewLike } from '../../src/panel/webviewBridge.ts';
import type { HostMessage } from '../../src/shared/panelProtocol.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';
import { USER } from './panelHarness.ts';

/** An in-memory webview view: records what the host posts and lets the test fire its events. */
class FakeView implements WebviewLike {
  visible = true;
  readonly posted: HostMessage[] = [];
  private readonly listeners = {
    message: new Set<(message: unknown) => void>(),
    visibility: new Set<() => void>(),
    dispose: new Set<() => void>(),
  };

  postMessage(message: HostMessage): Promise<boolean> {
    this.posted.push(message);
    return Promise.resolve(true);
  }
  onDidReceiveMessage(listener: (message: unknown) => void): Disposable {
    return this.add(this.listeners.message, listener);
  }
  onDidChangeVisibility(listener: () => void): Disposable {
    return this.add(this.listeners.visibility, listener);
  }
  onDidDispose(listener: () => void): Disposable {
    return this.add(this.listeners.dispose, listener);
  }
  /** How many message listeners are subscribed: a disposed bridge must have removed its own. */
  get messageListeners(): number {
    return this.listeners.message.size;
  }
  send(message: unknown): void {
    for (const listener of this.listeners.message) listener(message);
  }
  setVisible(visible: boolean): void {
    this.visible = visible;
    for (const listener of this.listeners.visibility) listener();
  }
  dispose(): void {
    for (const listener of [...this.listeners.dispose]) listener();
  }
  private add<T>(set: Set<T>, listener: T): Disposable {
    set.add(listener);
    return { dispose: () => set.delete(listener) };
  }
}

let testCore: TestCore;
let controller: PanelController;

before(async () => {
  testCore = await createTestCore();
  controller = new PanelController(
    { core: testCore.core, userId: () => USER, sessionId: () => undefined, host: 'vscode', log: () => undefined },
    { pollMs: 60_000 },
  );
});

after(async () => {
  controller.dispose();
  await testCore.cleanup();
});

/** Resolves once `find` returns something: waits for the host's answer, not for a fixed delay. */
async function until<T>(find: () => T | undefined): Promise<T> {
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const notifications = (view: FakeView) => view.posted.filter((message) => message.kind === 'notification');

it('answers webview requests by postMessage and pushes changes only while visible', async () => {
  const view = new FakeView();
  const connection = connectWebview(view, controller, () => undefined);
  assert.deepEqual(
    notifications(view).map((message) => message.kind === 'notification' && message.notification.type),
    ['store-changed'],
    'a newly shown view is told to read everything',
  );

  view.send({ kind: 'request', id: 41, method: 'panel/ready', params: {} });
  const response = await until(() => view.posted.find((message) => message.kind === 'response'));
  assert.ok(response && response.kind === 'response' && response.ok && response.id === 41);
  assert.equal((response.result as { host: string }).host, 'vscode');

  await testCore.core.storeMemory({
    user_id: USER,
    content: 'Visible panels hear about this.',
    memory_category: 'semantic',
    memory_subtype: 'project',
  });
  assert.ok(
    notifications(view).some(
      (message) => message.kind === 'notification' && message.notification.type === 'memories-changed',
    ),
  );

  view.setVisible(false);
  view.posted.length = 0;
  await testCore.core.storeMemory({
    user_id: USER,
    content: 'Hidden panels are not told; they re-read when shown.',
    memory_category: 'semantic',
    memory_subtype: 'project',
  });
  assert.equal(notifications(view).length, 0);

  view.setVisible(true);
  assert.deepEqual(
    notifications(view).map((message) => message.kind === 'notification' && message.notification.type),
    ['store-changed'],
  );

  assert.equal(view.messageListeners, 1);
  view.dispose();
  assert.equal(view.messageListeners, 0, 'the bridge stopped listening, so no later request can be answered');
  view.posted.length = 0;
  await testCore.core.storeMemory({
    user_id: USER,
    content: 'A disposed view gets nothing.',
    memory_category: 'semantic',
    memory_subtype: 'project',
  });
  view.send({ kind: 'request', id: 42, method: 'panel/ready', params: {} });
  assert.deepEqual(view.posted, []);
  connection.dispose();
});

it('asks the panel for focus on its list, also while the view is still hidden', () => {
  const view = new FakeView();
  view.visible = false;
  const connection = connectWebview(view, controller, () => undefined);
  view.posted.length = 0;
  connection.focusList();
  assert.deepEqual(view.posted, [{ kind: 'notification', notification: { type: 'focus-list' } }]);
  connection.dispose();
});
