import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { guardText } from '../../src/core/safety/contentGuard.ts';
import { SECRET_KINDS } from '../../src/core/safety/secretKinds.ts';
import { CREDENTIAL_CORPUS } from '../core/safety/credentialCorpus.ts';
import { documentedSecretRows } from './documentedSecretForms.ts';

/**
 * Every member of the lists README "Secret detection" documents gets a sample, generated from the
 * list as it is written: every kind, every vendor prefix (`ghr_` as much as `ghp_`), every
 * credential-setting form, every "left alone" form. A member added to the README without a rule,
 * or a rule that stops matching one member, fails here; so does a kind the detector names and the
 * README leaves out.
 */

const redact = { secretPolicy: 'redact', piiRedaction: false } as const;
const rows = documentedSecretRows();
const KIND_LABEL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const documentedKinds = rows.flatMap((row) => row.kinds.filter((kind) => KIND_LABEL.test(kind)));
const vendorRow = rows.find((row) => row.foundBy.startsWith("A vendor's prefix"));
const valueRows = rows.filter(
  (row) => row.foundBy.startsWith('Its surroundings') || row.foundBy.startsWith('A credential-like name'),
);

/**
 * What the README's wildcards stand for: `xox?-` is every Slack token type gitleaks names (bot,
 * user, app, refresh, legacy, configuration), `gl…-` every GitLab token prefix besides `glpat-`.
 */
const WILDCARDS: Record<string, readonly string[]> = {
  'xox?-': ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-'],
  'gl…-': ['glptt-', 'gldt-', 'glrt-', 'glcbt-', 'glsoat-', 'glft-', 'glimt-', 'glagent-', 'gloas-', 'glwt-'],
};
/** Prefixes whose token shape differs from the kind's other prefixes, so a swapped prefix would not be one. */
const OWN_SHAPES: Record<string, string> = {
  'xapp-': 'xapp-1-A05RJ0KGT7Q-5734019782346-3f9a7c2b4e8d1a6f0c5b9e2d7a4f8c1b',
};

function expanded(form: string): readonly string[] {
  return WILDCARDS[form] ?? [form];
}

function assertRedacted(text: string, secret: string, kind: string): void {
  const { content } = guardText(text, redact);
  assert.ok(!content.includes(secret), `${kind}: ${JSON.stringify(secret)} survived in ${JSON.stringify(content)}`);
  assert.ok(
    content.includes(`[REDACTED:${kind}]`),
    `${kind}: expected [REDACTED:${kind}] in ${JSON.stringify(content)}`,
  );
}

describe('every kind README "Secret detection" lists is the detector’s, and every one has a caught sample', () => {
  test('the README lists exactly the kinds the detector names, no more and no fewer', () => {
    assert.deepEqual(
      SECRET_KINDS.filter((kind) => !documentedKinds.includes(kind)),
      [],
      'kinds the detector names that the README does not list',
    );
    assert.deepEqual(
      documentedKinds.filter((kind) => !(SECRET_KINDS as readonly string[]).includes(kind)),
      [],
      'kinds the README lists that the detector does not name',
    );
  });

  for (const kind of documentedKinds) {
    test(`documented kind ${kind} has a corpus sample redacted under its own label`, () => {
      const samples = CREDENTIAL_CORPUS.filter((sample) => sample.kind === kind);
      assert.ok(samples.length > 0, `no sample of ${kind} in test/core/safety/credentialCorpus.ts`);
      for (const sample of samples.slice(0, 1))
        for (const secret of sample.secrets) assertRedacted(sample.text, secret, kind);
    });
  }
});

describe('every vendor prefix README lists is caught, each from a sample of its own', () => {
  assert.ok(vendorRow, 'README "Secret detection" lost its vendor-prefix row');
  for (const [kind, forms] of vendorRow.forms) {
    const all = forms.flatMap(expanded);
    for (const prefix of all) {
      test(`vendor prefix ${prefix} is redacted as ${kind}`, () => {
        const own = OWN_SHAPES[prefix];
        if (own) return assertRedacted(`export TOKEN_VALUE=${own}`, own.slice(prefix.length), kind);
        const samples = CREDENTIAL_CORPUS.filter((sample) => sample.kind === kind);
        const exact = samples.find(
          (sample) => sample.text.includes(prefix) && startsAnySecret(sample.secrets, prefix, sample.text),
        );
        if (exact) return exact.secrets.forEach((secret) => assertRedacted(exact.text, secret, kind));
        // No sample of this prefix: take one of the sibling prefix closest in length (`ghp_` for
        // `ghr_`, not `github_pat_`) and swap the prefix, so the token keeps its kind's length and alphabet.
        const sibling = all
          .filter((other) => other !== prefix)
          .sort((a, b) => Math.abs(a.length - prefix.length) - Math.abs(b.length - prefix.length))
          .map((other) => ({
            other,
            sample: samples.find((sample) => sample.secrets.some((secret) => secret.startsWith(other))),
          }))
          .find((candidate) => candidate.sample !== undefined);
        assert.ok(sibling?.sample, `no sample of ${kind} to derive a ${prefix} token from`);
        const secret = sibling.sample.secrets.find((value) => value.startsWith(sibling.other))!;
        const swapped = prefix + secret.slice(sibling.other.length);
        assertRedacted(sibling.sample.text.replace(secret, swapped), swapped.slice(prefix.length), kind);
      });
    }
  }
});

/** A prefix names the token (`ghp_…`) or the place right before it (`AccountKey=…`). */
function startsAnySecret(secrets: readonly string[], prefix: string, text: string): boolean {
  return secrets.some((secret) => secret.startsWith(prefix) || text.includes(`${prefix}${secret}`));
}

/** A strong value: not a reference, word or type, so any credential-named form must take it. */
const VALUE = 'Zx9qT4vK8mW2nR7pL5sY';

/** A credential written in a documented form: `DB_PASSWORD=` → `DB_PASSWORD=<value>`, `…` → the value. */
export function sampleOfForm(form: string, kind: string): string {
  if (form === 'Authorization:') return `Authorization: Basic ${Buffer.from(`deploy:${VALUE}`).toString('base64')}`;
  if (form.includes('…')) return form.replace('*', 'DEPLOY').replace('…', VALUE);
  if (/:(?:pass|pw)@|:pass$/.test(form))
    return `${form.replace(/:(pass|pw)(?=@|$)/, `:${VALUE}`)}${form.endsWith('pass') ? ' https://api.example.com' : ''}`;
  if (form.startsWith('"') && form.endsWith(':')) return `{${form} "${VALUE}"}`;
  if (form.endsWith('=')) return `${form}${VALUE}`;
  if (form.endsWith(':')) return `${form} ${VALUE}`;
  if (/^[A-Za-z_]+$/.test(form)) return `${form} = ${VALUE}`;
  throw new Error(`no way to write a ${kind} sample in the form ${JSON.stringify(form)}; teach sampleOfForm`);
}

describe('every credential form README lists (headers, URLs, settings) has its value redacted', () => {
  for (const row of valueRows) {
    for (const [kind, forms] of row.forms) {
      for (const form of forms) {
        test(`${kind} form ${form} has its value redacted`, () => {
          const text = sampleOfForm(form, kind);
          const { content } = guardText(text, redact);
          const secret =
            kind === 'basic-auth' && form === 'Authorization:' ? text.slice('Authorization: Basic '.length) : VALUE;
          assert.ok(!content.includes(secret), `${JSON.stringify(text)} kept its value: ${JSON.stringify(content)}`);
          assert.ok(content.includes(`[REDACTED:${kind}]`), `${JSON.stringify(text)} → ${JSON.stringify(content)}`);
        });
      }
    }
  }
});

/** The backticked items of README's "Left alone:" paragraph. */
function leftAloneForms(): string[] {
  const readme = readFileSync(new URL('../../docs/lifecycle.md', import.meta.url), 'utf8');
  const start = readme.indexOf('Left alone:', readme.indexOf('### Secret detection'));
  assert.ok(start !== -1, 'README "Secret detection" lost its "Left alone:" paragraph');
  const paragraph = readme.slice(start, readme.indexOf('\n\n', start));
  return [...paragraph.matchAll(/`([^`]+)`/g)].map((match) => match[1]).filter((form) => !form.includes('/'));
}

describe('every form README says is left alone is left exactly as written', () => {
  const forms = leftAloneForms();
  test('the "Left alone" list is read', () => assert.ok(forms.length >= 10, JSON.stringify(forms)));
  for (const form of forms) {
    test(`left alone: ${form}`, () => {
      assert.equal(guardText(form, redact).content, form);
      // A reference or stand-in is left alone also as the value of a credential-named setting.
      if (/[${<*]|process\.env/.test(form)) {
        const setting = `DB_PASSWORD=${form}`;
        assert.equal(guardText(setting, redact).content, setting);
      }
    });
  }
});
