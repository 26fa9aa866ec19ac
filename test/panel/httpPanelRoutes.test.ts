import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ASSETS_DIR, type PanelHarness, startPanelHarness, TOKEN, USER } from './panelHarness.ts';

const built = existsSync(`${ASSETS_DIR}/main.js`);

describe(
  'panel HTTP routes',
  { skip: built ? false : 'the panel is not built; run "npm run build" (dist/webview/main.js missing)' },
  () => {
    let harness: PanelHarness;
    let base: string;

    before(async () => {
      harness = await startPanelHarness({ pollMs: 100 });
      base = harness.server.url;
    });

    after(async () => harness.close());

    it('refuses the page and the API without the token', async () => {
      const page = await fetch(`${base}/`);
      assert.equal(page.status, 401);
      assert.match(await page.text(), /needs the server token/);
      const api = await fetch(`${base}/api/panel`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'request', id: 1, method: 'panel/ready', params: {} }),
      });
      assert.equal(api.status, 401);
      assert.equal(((await api.json()) as { error: { code: string } }).error.code, 'UNAUTHORIZED');
      assert.equal((await fetch(`${base}/?token=wrong`)).status, 401);
      assert.equal((await fetch(`${base}/panel/main.js`)).status, 401);
    });

    it('swaps ?token= for an HttpOnly SameSite=Strict cookie, then serves the page with a nonce CSP', async () => {
      const entry = await fetch(`${base}/?token=${TOKEN}`, { redirect: 'manual' });
      assert.equal(entry.status, 303);
      assert.equal(entry.headers.get('location'), '/');
      const cookie = entry.headers.get('set-cookie') ?? '';
      assert.match(cookie, /HttpOnly/);
      assert.match(cookie, /SameSite=Strict/);
      const session = cookie.split(';')[0];
      const page = await fetch(`${base}/`, { headers: { cookie: session } });
      assert.equal(page.status, 200);
      const html = await page.text();
      const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];
      assert.ok(nonce, 'CSP names a script nonce');
      assert.match(html, new RegExp(`<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}" src="/panel/main.js">`));
      assert.doesNotMatch(html, new RegExp(TOKEN), 'the token never appears in the page');
      assert.match(html, /default-src 'none'/);
      const script = await fetch(`${base}/panel/main.js`, { headers: { cookie: session } });
      assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
      const api = await fetch(`${base}/api/panel`, {
        method: 'POST',
        headers: { cookie: session, 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ kind: 'request', id: 7, method: 'panel/ready', params: {} }),
      });
      const response = (await api.json()) as { id: number; ok: boolean; result: { user_id: string; host: string } };
      assert.equal(response.id, 7);
      assert.equal(response.result.user_id, USER);
      assert.equal(response.result.host, 'browser');
    });

    it('accepts the bearer header on the API and answers protocol errors as typed responses', async () => {
      const api = await fetch(`${base}/api/panel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'request', id: 3, method: 'memory/explode', params: {} }),
      });
      assert.equal(api.status, 200);
      assert.deepEqual(await api.json(), {
        kind: 'response',
        id: 3,
        ok: false,
        error: { code: 'UNKNOWN_METHOD', message: 'Unknown panel method "memory/explode".' },
      });
      const notJson = await fetch(`${base}/api/panel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: '{oops',
      });
      assert.equal(notJson.status, 400);
    });

    it('rejects a cross-origin page even with the cookie (the Origin check runs first)', async () => {
      const api = await fetch(`${base}/api/panel`, {
        method: 'POST',
        headers: { cookie: `fml_panel_${harness.server.port}=${TOKEN}`, origin: 'http://evil.example' },
        body: JSON.stringify({ kind: 'request', id: 1, method: 'panel/ready', params: {} }),
      });
      assert.equal(api.status, 403);
    });

    it('streams change notifications over Server-Sent Events', async () => {
      const received = await new Promise<string>((resolve, reject) => {
        const request = httpRequest(
          `${base}/api/panel/events`,
          { headers: { authorization: `Bearer ${TOKEN}` } },
          (response) => {
            assert.equal(response.headers['content-type'], 'text/event-stream');
            let buffer = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              buffer += chunk;
              const event = buffer.split('\n\n').find((block) => block.startsWith('data: '));
              if (event) {
                request.destroy();
                resolve(event.slice('data: '.length));
              }
            });
            void harness.core.storeMemory({
              user_id: USER,
              content: 'SSE carries this change to open panels.',
              memory_category: 'semantic',
              memory_subtype: 'project',
            });
          },
        );
        request.on('error', reject);
        request.end();
      });
      const message = JSON.parse(received) as { kind: string; notification: { type: string; change: string } };
      assert.equal(message.kind, 'notification');
      assert.equal(message.notification.type, 'memories-changed');
      assert.equal(message.notification.change, 'created');
    });
  },
);
