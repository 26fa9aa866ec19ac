/**
 * `node bench/secretDetection.ts`: cost of the secret gate and of the injection check on what
 * memories hold: every text of the shared evaluation data (coding-dev.json, locomo-dev.json, when
 * present in ../shared/data or FML_DATA_DIR), the test corpora, and 100 KB texts (the content limit)
 * of prose, code and base64. Also reports how many evaluation texts were altered or flagged: both
 * should be 0, as those texts hold no credential and no injection.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isInstructionLike } from '../src/core/safety/injectionPhrasing.ts';
import { redactSecrets } from '../src/core/safety/secretDetector.ts';
import { CREDENTIAL_CORPUS } from '../test/core/safety/credentialCorpus.ts';
import { LOOK_ALIKE_CORPUS } from '../test/core/safety/lookAlikeCorpus.ts';
import { latencySummary, ms } from './stats.ts';

const dataDir = process.env.FML_DATA_DIR ?? join(import.meta.dirname, '..', '..', 'shared', 'data');

function stringsOf(node: unknown, out: string[]): string[] {
  if (typeof node === 'string') {
    if (node.length > 15) out.push(node);
  } else if (Array.isArray(node)) {
    for (const entry of node) stringsOf(entry, out);
  } else if (node !== null && typeof node === 'object') {
    for (const entry of Object.values(node)) stringsOf(entry, out);
  }
  return out;
}

function time(texts: readonly string[], run: (text: string) => unknown): ReturnType<typeof latencySummary> {
  const samples: number[] = [];
  for (const text of texts) {
    const start = performance.now();
    run(text);
    samples.push(performance.now() - start);
  }
  return latencySummary(samples);
}

function report(name: string, texts: readonly string[]): void {
  const chars = texts.reduce((total, text) => total + text.length, 0);
  const redact = time(texts, redactSecrets);
  const inject = time(texts, isInstructionLike);
  console.log(
    `${name.padEnd(28)} ${String(texts.length).padStart(6)} texts, ${Math.round(chars / texts.length)
      .toString()
      .padStart(
        6,
      )} chars avg | redact p50 ${ms(redact.p50)} p99 ${ms(redact.p99)} max ${ms(redact.max)} ms | injection p50 ${ms(inject.p50)} p99 ${ms(inject.p99)} ms`,
  );
}

const evaluation = ['coding-dev.json', 'locomo-dev.json']
  .map((file) => join(dataDir, file))
  .filter((path) => existsSync(path))
  .flatMap((path) => stringsOf(JSON.parse(readFileSync(path, 'utf8')), []));

// Warm the regular expressions once so the first sample does not carry their compilation.
for (const sample of CREDENTIAL_CORPUS) redactSecrets(sample.text);

if (evaluation.length > 0) {
  report('evaluation data', evaluation);
  const altered = evaluation.filter((text) => redactSecrets(text) !== text).length;
  const flagged = evaluation.filter((text) => isInstructionLike(text)).length;
  console.log(`evaluation texts altered by redaction: ${altered}; flagged as instruction-like: ${flagged}`);
} else {
  console.log(`no evaluation data in ${dataDir}; set FML_DATA_DIR`);
}
report(
  'credential corpus',
  CREDENTIAL_CORPUS.map((sample) => sample.text),
);
report('look-alike corpus', LOOK_ALIKE_CORPUS);
const prose = 'We decided to run mypy in strict mode; staging deploys need the VPN and the password lives in Vault. ';
const code = 'const token = await getToken({ scope: "repo" }); if (password === confirmPassword) submit(); // TODO\n';
const base64 = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODkrLw==\n';
const limit = (unit: string) => unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000);
report(
  '100 KB prose / code / base64',
  Array.from({ length: 10 }, () => [limit(prose), limit(code), limit(base64)]).flat(),
);
