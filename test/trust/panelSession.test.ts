import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { PanelSessions } from '../../src/panel/panelSessions.ts';
import { ASSETS_DIR, type PanelHarness, startPanelHarness, TOKEN } from '../panel/panelHarness.ts';

const READY = JSON.stringify({ kind: 'request', id: 1, method: 'panel/ready', params: {} });

describe(
  'the panel cookie is a panel session, never the MCP token (issue 13.8)',
  { skip: existsSync(`${ASSETS_DIR}/main.js`) ? false : 'the panel is not built (dist/webview/main.js missing)' },
  () => {
    let harness: PanelHarness;
    let base: string;
    let cookie: string;
    let setCookie: string;
    before(async () => {
      harness = await startPanelHarness({ pollMs: 100 });
      base = harness.server.url;
      const entry = await fetch(harness.pageUrl, { redirect: 'manual' });
      setCookie = entry.headers.get('set-cookie') ?? '';
      cookie = setCookie.split(';')[0]!;
    });
    after(async () => harness.close());

    const post = (headers: Record<string, string>, body = READY) =>
      fetch(`${base}/api/panel`, { method: 'POST', headers, body });

    it('sets a random, expiring session id that is not the token, and refuses the token as a cookie', async () => {
      assert.ok(!setCookie.includes(TOKEN) && !setCookie.includes(encodeURIComponent(TOKEN)), setCookie);
      assert.match(cookie, /^fml_panel_\d+=[\w-]{43}$/);
      assert.match(setCookie, /HttpOnly/);
      assert.match(setCookie, /SameSite=Strict/);
      assert.match(setCookie, /Max-Age=\d+/);
      const second = (await fetch(harness.pageUrl, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0];
      assert.notEqual(second, cookie, 'each sign-in gets its own id');
      const tokenCookie = `fml_panel_${harness.server.port}=${TOKEN}`;
      assert.equal((await fetch(`${base}/`, { headers: { cookie: tokenCookie } })).status, 401);
      assert.equal((await post({ cookie: tokenCookie, 'content-type': 'application/json', origin: base })).status, 401);
      // The session id is no MCP credential either.
      const mcp = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${cookie.split('=')[1]}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{}',
      });
      assert.equal(mcp.status, 401);
    });

    it('accepts a panel change only as JSON from the same origin', async () => {
      const ok = await post({ cookie, 'content-type': 'application/json', origin: base });
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { id: number }).id, 1);
      assert.equal(
        (await post({ cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' })).status,
        200,
      );
      assert.equal(
        (await post({ cookie, 'content-type': 'text/plain', origin: base })).status,
        415,
        'a form or no-cors fetch cannot send JSON',
      );
      assert.equal(
        (await post({ cookie, 'content-type': 'application/x-www-form-urlencoded', origin: base })).status,
        415,
      );
      assert.equal(
        (await post({ cookie, 'content-type': 'application/json' })).status,
        403,
        'no Origin, no Sec-Fetch-Site',
      );
      assert.equal(
        (await post({ cookie, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status,
        403,
      );
      assert.equal(
        (await post({ cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-site' })).status,
        403,
        'another port of 127.0.0.1 is same-site, not same-origin',
      );
    });

    it('expires sessions', () => {
      let now = 1_000;
      const sessions = new PanelSessions({ ttlMs: 60_000, now: () => now });
      const id = sessions.create();
      assert.equal(sessions.isValid(id), true);
      assert.equal(sessions.isValid(`${id.slice(0, -1)}A`), id.endsWith('A'));
      now += 60_000;
      assert.equal(sessions.isValid(id), false);
      assert.equal(sessions.isValid(null), false);
    });
  },
);
