import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardText } from '../../../src/core/safety/contentGuard.ts';

/**
 * The edges of the vendor-prefixed tokens (docs/lifecycle.md "Secret detection": "a vendor's
 * prefix and token shape"): a token is replaced whole, wherever it stands (http or https, at the
 * end of the text, before a space, with or without padding), and a shape one step short of the
 * vendor's (a webhook URL with no token, a token one character too short or running on past its
 * length) is left as written, so prose that names a vendor's URL or prefix is not altered.
 * secretKindSamples.test.ts has one caught sample per documented prefix; these are its near misses.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const run = (unit: string, times: number): string => unit.repeat(times);
/** Ten characters mixing cases and digits, as generated tokens do. */
const T10 = 'a1B2c3D4e5';

const CASES: ReadonlyArray<readonly [text: string, expected: string]> = [
  // Fixed lengths: one more character of the same alphabet is not the vendor's token.
  [`npm_${run(T10, 3)}a1B2c3`, '[REDACTED:npm-token]'],
  [`npm_${run(T10, 3)}a1B2c3D`, `npm_${run(T10, 3)}a1B2c3D`],
  [`GOCSPX-${run(T10, 2)}a1B2c3D4`, '[REDACTED:google-oauth-secret]'],
  [`GOCSPX-${run(T10, 2)}a1B2c3D4e`, `GOCSPX-${run(T10, 2)}a1B2c3D4e`],
  [`sk-${run(T10, 3)}`, '[REDACTED:openai-key]'],
  [`sk-${run(T10, 3)}-more`, `sk-${run(T10, 3)}-more`],
  [`SG.${run(T10, 2)}a1.${run(T10, 4)}a1B`, '[REDACTED:sendgrid-key]'],
  [`SG.${run(T10, 2)}a1.${run(T10, 2)}`, `SG.${run(T10, 2)}a1.${run(T10, 2)}`],
  [`AAAAabcdefg:${run(T10, 14)}`, '[REDACTED:firebase-server-key]'],
  ['AAAAabcdefg:abc', 'AAAAabcdefg:abc'],
  [`dapi${run('a1b2c3d4', 4)}-2`, '[REDACTED:databricks-token]'],
  [`secret_${run(T10, 4)}a1B`, '[REDACTED:notion-token]'],
  ['secret_1 and secret_2', 'secret_1 and secret_2'],
  [`glc_${run('a1B2c3D4', 4)}`, '[REDACTED:grafana-token]'],
  [`glc_${run('a1B2c3D4', 4)}==`, '[REDACTED:grafana-token]'],
  // A prefix with a few characters after it is a word, not a token.
  ['ATATT3abc', 'ATATT3abc'],
  ['glc_abc', 'glc_abc'],
  ['sq0atp-abc', 'sq0atp-abc'],
  ['sbp_abc', 'sbp_abc'],
  ['see sl.abc', 'see sl.abc'],
  ['HRKU-abc', 'HRKU-abc'],
  // Webhook URLs: http or https, and only with their token.
  [`https://hooks.slack.com/services/T01ABCDEF/B01ABCDEF/${run(T10, 2)}`, '[REDACTED:slack-webhook]'],
  [`http://hooks.slack.com/services/T01ABCDEF/B01ABCDEF/${run(T10, 2)}`, '[REDACTED:slack-webhook]'],
  ['see https://hooks.slack.com/services/T01 for', 'see https://hooks.slack.com/services/T01 for'],
  [`https://discord.com/api/webhooks/123456789/${run(T10, 6)}`, '[REDACTED:discord-webhook]'],
  [`http://discord.com/api/webhooks/123456789/${run(T10, 6)}`, '[REDACTED:discord-webhook]'],
  ['https://discord.com/api/webhooks/123456789/abc', 'https://discord.com/api/webhooks/123456789/abc'],
  // Slack's configuration tokens carry a second prefix; the whole token goes.
  [`xoxe.xoxp-1-${run(T10, 3)}`, '[REDACTED:slack-token]'],
  // A SAS signature with its padding, encoded or not, or none.
  [
    `https://x.blob.core.windows.net/c?sv=2022&sig=${run(T10, 3)}%3D%3D&se=1`,
    'https://x.blob.core.windows.net/c?sv=2022&sig=[REDACTED:azure-sas-token]&se=1',
  ],
  [
    `https://x.blob.core.windows.net/c?sv=2022&sig=${run(T10, 3)}&se=1`,
    'https://x.blob.core.windows.net/c?sv=2022&sig=[REDACTED:azure-sas-token]&se=1',
  ],
  [`?sig=${run(T10, 3)}==`, '?sig=[REDACTED:azure-sas-token]'],
  // An Azure client secret before a space and at the end of the text.
  [`secret abC8Q~${run(T10, 3)}a1B2 here`, 'secret [REDACTED:azure-client-secret] here'],
  [`secret abC8Q~${run(T10, 3)}a1B2`, 'secret [REDACTED:azure-client-secret]'],
];

describe('vendor tokens: replaced whole, and the near misses of each shape left alone', () => {
  for (const [text, expected] of CASES) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(guardText(text, redact).content, expected);
    });
  }
});
