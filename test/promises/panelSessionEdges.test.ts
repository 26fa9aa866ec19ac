import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PANEL_SESSION_TTL_MS, PanelSessions } from '../../src/panel/panelSessions.ts';

/** The panel sign-in's documented limits on both sides of the edge: its 8 hours and its 1,000 sessions. */
describe('panel sessions at their edges (SECURITY.md: the cookie expires after 8 h)', () => {
  it('a session is valid until the last millisecond of its 8 hours and not at the 8-hour mark', () => {
    assert.equal(PANEL_SESSION_TTL_MS, 8 * 60 * 60 * 1000);
    let now = 5_000;
    const sessions = new PanelSessions({ now: () => now });
    assert.equal(sessions.ttlSeconds, 8 * 60 * 60);
    const id = sessions.create();
    now += PANEL_SESSION_TTL_MS - 1;
    assert.equal(sessions.isValid(id), true, 'one millisecond before it expires');
    now += 1;
    assert.equal(sessions.isValid(id), false, 'at the 8-hour mark');
    assert.equal(sessions.isValid(''), false);
  });

  it('keeps at most 1,000 sign-ins: the 1,001st ends the oldest and only it', () => {
    let now = 0;
    const sessions = new PanelSessions({ ttlMs: 60_000, now: () => now });
    const ids = Array.from({ length: 1_000 }, () => sessions.create());
    assert.ok(ids.every((id) => sessions.isValid(id)));
    const newest = sessions.create();
    assert.equal(sessions.isValid(ids[0]!), false, 'the oldest ended');
    assert.equal(sessions.isValid(ids[1]!), true, 'the second oldest lives');
    assert.equal(sessions.isValid(newest), true);
    // Expired sign-ins are swept before the cap counts: none of the live ones is ended for them.
    now = 60_000;
    const after = Array.from({ length: 999 }, () => sessions.create());
    const last = sessions.create();
    assert.ok(
      [...after, last].every((id) => sessions.isValid(id)),
      'expired sessions made room, not live ones',
    );
  });
});
