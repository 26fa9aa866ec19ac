import type { SecretKind } from './secretKinds.ts';

/**
 * Credentials a vendor marks with a fixed prefix or shape (`ghp_…`, `glpat-…`, `SG.….…`,
 * `hooks.slack.com/services/…`). The kinds follow gitleaks' public rule set; the patterns are our
 * own. Each anchors on the vendor's marker and the token's length and alphabet, so ordinary code,
 * hashes and identifiers do not match. Where a token is one part of a larger shape (an Azure
 * connection string, a URL), the `secret` group is the part that is replaced.
 */
export interface TokenRule {
  kind: SecretKind;
  pattern: RegExp;
  /**
   * Literal text every match of `pattern` contains at least one of (the patterns are case-sensitive,
   * so are these): a text holding none of them cannot match, and the pattern is not run over it.
   * Each is a fixed part of the pattern outside any repetition or option; the tests check every
   * rule against its anchors on the rules' own examples and on random and hostile texts.
   */
  anchors: readonly string[];
}

/** Whether `text` holds one of the rule's anchors, so that its pattern may match. */
export function mayMatch(rule: TokenRule, text: string): boolean {
  for (const anchor of rule.anchors) if (text.includes(anchor)) return true;
  return false;
}

// The end guard: the token does not continue (a longer run of the same alphabet is something else).
const END = '(?![A-Za-z0-9_-])';

export const PREFIXED_TOKEN_RULES: readonly TokenRule[] = [
  // Anthropic first: its keys also start with "sk-".
  {
    kind: 'anthropic-key',
    anchors: ['sk-ant-'],
    pattern: new RegExp(`\\bsk-ant-(?:api|admin|sid)?[A-Za-z0-9_-]{32,}${END}`, 'g'),
  },
  // Project, service-account and admin keys carry a dash-separated scope; legacy keys are one alphanumeric run.
  {
    kind: 'openai-key',
    anchors: ['sk-'],
    pattern: new RegExp(`\\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20,}${END})`, 'g'),
  },
  {
    kind: 'github-token',
    anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: new RegExp(`\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})`, 'g'),
  },
  {
    kind: 'gitlab-token',
    anchors: [
      'glpat-',
      'glptt-',
      'gldt-',
      'glrt-',
      'glcbt-',
      'glsoat-',
      'glft-',
      'glimt-',
      'glagent-',
      'gloas-',
      'glwt-',
      'GR1348941',
    ],
    pattern: new RegExp(
      `\\b(?:gl(?:pat|ptt|dt|rt|cbt|soat|ft|imt|agent|oas|wt)-[A-Za-z0-9_.-]{20,}|GR1348941[A-Za-z0-9_-]{20,})${END}`,
      'g',
    ),
  },
  {
    kind: 'aws-access-key',
    anchors: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'ANPA'],
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b/g,
  },
  {
    kind: 'azure-storage-key',
    anchors: ['AccountKey=', 'SharedAccessKey='],
    pattern: /\b(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{40,}={0,2})/dg,
  },
  { kind: 'azure-sas-token', anchors: ['sig='], pattern: /[?&]sig=(?<secret>[A-Za-z0-9%+/]{20,}(?:%3D|=){0,2})/dg },
  {
    kind: 'azure-client-secret',
    anchors: ['Q~'],
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  },
  { kind: 'google-api-key', anchors: ['AIza'], pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'google-oauth-secret', anchors: ['GOCSPX-'], pattern: new RegExp(`\\bGOCSPX-[A-Za-z0-9_-]{28}${END}`, 'g') },
  { kind: 'google-oauth-token', anchors: ['ya29.'], pattern: new RegExp(`\\bya29\\.[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'firebase-server-key', anchors: ['AAAA'], pattern: /\bAAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{140}/g },
  {
    kind: 'slack-token',
    anchors: ['xox', 'xapp-'],
    pattern: /\b(?:xox[a-z](?:\.xox[a-z])?-[0-9A-Za-z-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})/g,
  },
  {
    kind: 'slack-webhook',
    anchors: ['hooks.slack.com/'],
    pattern: /\bhttps?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{20,}/g,
  },
  {
    kind: 'discord-webhook',
    anchors: ['.com/api/webhooks/'],
    pattern: /\bhttps?:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{50,}/g,
  },
  {
    kind: 'stripe-key',
    anchors: ['_live_', '_test_', 'whsec_'],
    pattern: /\b(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[A-Za-z0-9]{32,})/g,
  },
  { kind: 'sendgrid-key', anchors: ['SG.'], pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/g },
  { kind: 'twilio-key', anchors: ['SK'], pattern: /\bSK[0-9a-fA-F]{32}\b/g },
  { kind: 'mailgun-key', anchors: ['key-'], pattern: /\bkey-[0-9a-f]{32}\b/g },
  { kind: 'mailchimp-key', anchors: ['-us'], pattern: /\b[0-9a-f]{32}-us\d{1,2}\b/g },
  {
    kind: 'huggingface-token',
    anchors: ['hf_', 'api_org_'],
    pattern: new RegExp(`\\b(?:hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,})${END}`, 'g'),
  },
  // The bot id, a colon, then 35 characters that start with "AA".
  {
    kind: 'telegram-bot-token',
    anchors: [':AA'],
    pattern: new RegExp(`\\b\\d{6,12}:AA[A-Za-z0-9_-]{30,40}${END}`, 'g'),
  },
  // A macaroon whose first bytes encode "pypi.org" (or test.pypi.org).
  { kind: 'pypi-token', anchors: ['pypi-AgE'], pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  { kind: 'npm-token', anchors: ['npm_'], pattern: new RegExp(`\\bnpm_[A-Za-z0-9]{36}${END}`, 'g') },
  {
    kind: 'shopify-token',
    anchors: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g,
  },
  { kind: 'digitalocean-token', anchors: ['_v1_'], pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { kind: 'databricks-token', anchors: ['dapi'], pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { kind: 'linear-key', anchors: ['lin_api_', 'lin_oauth_'], pattern: /\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b/g },
  {
    kind: 'notion-token',
    anchors: ['secret_', 'ntn_'],
    pattern: /\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})\b/g,
  },
  { kind: 'postman-key', anchors: ['PMAK-'], pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g },
  { kind: 'atlassian-token', anchors: ['ATATT3'], pattern: /\bATATT3[A-Za-z0-9_=-]{100,}/g },
  {
    kind: 'grafana-token',
    anchors: ['glc_', 'glsa_'],
    pattern: /\b(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})/g,
  },
  {
    kind: 'vault-token',
    anchors: ['hvs.', 'hvb.', 'hvr.'],
    pattern: new RegExp(`\\bhv[sbr]\\.[A-Za-z0-9_-]{24,}${END}`, 'g'),
  },
  { kind: 'terraform-token', anchors: ['.atlasv1.'], pattern: /\b[a-zA-Z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}/g },
  { kind: 'newrelic-key', anchors: ['NRAK-', 'NRII-', 'NRJS-'], pattern: /\bNR(?:AK|II|JS)-[A-Za-z0-9]{19,}\b/g },
  { kind: 'sentry-token', anchors: ['sntrys_', 'sntryu_'], pattern: /\bsntry[su]_[A-Za-z0-9+/=_-]{40,}/g },
  { kind: 'square-token', anchors: ['sq0atp-', 'sq0csp-'], pattern: /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}/g },
  { kind: 'figma-token', anchors: ['figd_', 'figr_'], pattern: new RegExp(`\\bfig[dr]_[A-Za-z0-9_-]{40,}${END}`, 'g') },
  { kind: 'supabase-token', anchors: ['sbp_', 'sb_secret_'], pattern: /\bsb(?:p|_secret)_[A-Za-z0-9_-]{32,}/g },
  { kind: 'doppler-token', anchors: ['dp.'], pattern: /\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b/g },
  { kind: 'dropbox-token', anchors: ['sl.'], pattern: /\bsl\.[A-Za-z0-9_-]{130,}/g },
  { kind: 'heroku-key', anchors: ['HRKU-'], pattern: /\bHRKU-[A-Za-z0-9_-]{40,}/g },
  { kind: 'age-secret-key', anchors: ['AGE-SECRET-KEY-1'], pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g },
  { kind: 'jwt', anchors: ['eyJ'], pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

/**
 * One pass for every rule's anchors: a text matching none (almost every note) skips all the rules,
 * where asking each rule's anchors in turn cost 90 substring searches (4 µs a text, issue 31).
 */
const ANY_ANCHOR = new RegExp(
  [...new Set(PREFIXED_TOKEN_RULES.flatMap((rule) => rule.anchors))]
    .map((anchor) => anchor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

/** The rules whose pattern may match `text`: those with an anchor in it. */
export function rulesThatMayMatch(text: string): readonly TokenRule[] {
  return ANY_ANCHOR.test(text) ? PREFIXED_TOKEN_RULES.filter((rule) => mayMatch(rule, text)) : [];
}
