import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * "Only X is accepted" for the stand-ins a credential setting may hold (docs/lifecycle.md "Left
 * alone": `****`, `<your key>`, type names): each shape of stand-in is left as written, and a real
 * value that merely starts, ends or is mixed with the same shape is still redacted. The near misses
 * are what a loosened pattern (an anchor or a repetition dropped) would wrongly leave in the clear.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;

const LEFT_ALONE = [
  'DB_PASSWORD="xxxxxxxx"',
  'DB_PASSWORD="XXXXXXXX"',
  'DB_PASSWORD="********"',
  'DB_PASSWORD="........"',
  'DB_PASSWORD="########"',
  'DB_PASSWORD="••••••••"',
  'DB_PASSWORD=the-admin-one',
  'DB_PASSWORD="your password here"',
  'DB_PASSWORD=ResetPasswordFlowV2',
  'DB_PASSWORD=ResetPasswordFlowV12',
];

const REDACTED = [
  'DB_PASSWORD=Zx9qT4vK8mxxx',
  'DB_PASSWORD=xxxZx9qT4vK8m',
  'DB_PASSWORD=Zx9qT4vK8m***',
  'DB_PASSWORD=Zx9qT4vK8m_the_end',
  'DB_PASSWORD=the-Zx9qT4vK8m',
  'DB_PASSWORD=Zx9qT4vK8m-put-here',
  'DB_PASSWORD=9ResetPasswordFlowV2',
  'DB_PASSWORD=ResetPasswordFlowV2x9',
];

describe('stand-in values of a credential setting: the shapes, and the real values that look like them', () => {
  for (const setting of LEFT_ALONE)
    it(`left alone: ${setting}`, () => assert.equal(guardText(setting, redact).content, setting));
  for (const setting of REDACTED)
    it(`redacted: ${setting}`, () => {
      const { content } = guardText(setting, redact);
      assert.equal(content, 'DB_PASSWORD=[REDACTED:password-assignment]');
    });
});
