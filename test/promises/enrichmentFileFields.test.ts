import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { enrichmentRefusal } from '../../src/core/enrichment/enrichmentPolicy.ts';

/**
 * docs/retrieval.md, "Search keys from a model": memories about credential files or files the user
 * excluded are never sent. A memory names its file in a `file:` entity or in one of the metadata
 * fields the document lists; each field is read from that sentence and tried with a credential
 * file, an excluded file and an ordinary one (which may be sent: the refusals are not vacuous).
 */
const doc = readFileSync(new URL('../../docs/retrieval.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const sentence = doc.slice(doc.indexOf('A memory is about a file when'), doc.indexOf('names the file.'));
const metadataFields = [...sentence.slice(sentence.indexOf('metadata fields')).matchAll(/`([a-z_]+)`/g)].map(
  (match) => match[1]!,
);

const memory = (about: { entities?: string[]; metadata?: Record<string, unknown> }) => ({
  content: 'The service reads its settings at startup and caches them for an hour.',
  entities: about.entities ?? [],
  tags: [],
  metadata: about.metadata ?? {},
});
const policy = { allowsPath: (path: string) => !path.includes('private/') };

/** Every way a memory can name `path`: an entity, each listed field, and a file:// URI in `uri`. */
function namings(path: string): Array<[string, ReturnType<typeof memory>]> {
  return [
    ['a file: entity', memory({ entities: [`file:${path}`] })],
    ...metadataFields.map((field): [string, ReturnType<typeof memory>] => [
      `metadata.${field}`,
      memory({ metadata: { [field]: path } }),
    ]),
    ['metadata.uri as a file:// URI', memory({ metadata: { uri: `file:///${path}` } })],
  ];
}

describe('a memory about a credential or excluded file is never sent, however it names the file', () => {
  it('reads the fields', () =>
    assert.ok(metadataFields.length >= 4 && metadataFields.includes('file'), JSON.stringify(metadataFields)));

  for (const [what, path] of [
    ['a credential file', 'services/api/.env'],
    ['a key file', 'deploy/id_rsa'],
    ['a file the user excluded', 'private/plans.md'],
  ] as const) {
    it(`${what} named in any field is refused as excluded_file`, () => {
      for (const [naming, about] of namings(path))
        assert.equal(enrichmentRefusal(about, policy), 'excluded_file', `${path} named by ${naming} was not refused`);
    });
  }

  it('an ordinary file named in any field may be sent', () => {
    for (const [naming, about] of namings('src/server/settings.ts'))
      assert.equal(enrichmentRefusal(about, policy), null, `src/server/settings.ts named by ${naming} was refused`);
  });
});
