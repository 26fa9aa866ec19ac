import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import type { MemoryFile } from '../../../src/core/repomemory/memoryFile.ts';
import { parseMemoryFile, serializeMemoryFile } from '../../../src/core/repomemory/memoryFileFormat.ts';
import { memoryFileName, slugOf } from '../../../src/core/repomemory/memoryFileName.ts';

const PATH = '.memory/run-the-migrations-1a2b3c4d.md';

function sample(overrides: Partial<MemoryFile> = {}): MemoryFile {
  return {
    id: 'mem_0f9e8d7c6b5a1a2b3c4d',
    category: 'procedural',
    subtype: 'workflow',
    tags: ['database', 'release'],
    anchors: ['src/db/migrate.ts#runMigrations'],
    created: '2026-11-01T09:00:00.000Z',
    updated: '2026-11-20T10:30:00.000Z',
    version: 3,
    pinned: true,
    body: 'Run the migrations with `npm run migrate` before starting the server.',
    ...overrides,
  };
}

const SAMPLE_TEXT = `---
id: mem_0f9e8d7c6b5a1a2b3c4d
category: procedural
subtype: workflow
tags: ["database","release"]
anchors: ["src/db/migrate.ts#runMigrations"]
created: 2026-11-01T09:00:00.000Z
updated: 2026-11-20T10:30:00.000Z
version: 3
pinned: true
---
Run the migrations with \`npm run migrate\` before starting the server.
`;

function problems(text: string): Array<[number, string]> {
  const parsed = parseMemoryFile(PATH, text);
  assert.equal(parsed.ok, false, 'expected diagnostics');
  if (parsed.ok) return [];
  for (const diagnostic of parsed.diagnostics) assert.equal(diagnostic.path, PATH);
  return parsed.diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.code]);
}

describe('memory files (.memory/*.md)', () => {
  it('writes a fact as its own line and reads it back; a malformed fact line is a diagnostic on its line', () => {
    const fact = sample({
      category: 'preference',
      subtype: 'boundaries',
      anchors: [],
      fact: { category: 'constraint', key: 'node_version', value: 'Node 24' },
      body: 'constraint node version: Node 24',
    });
    const text = serializeMemoryFile(fact);
    assert.match(text, /\npinned: true\nfact: \["constraint","node_version","Node 24"\]\n---\n/);
    assert.deepEqual(parseMemoryFile(PATH, text), { ok: true, file: fact });
    assert.equal(/\nfact:/.test(serializeMemoryFile(sample())), false, 'no fact line for other memories');
    for (const bad of [
      '["constraint","node_version"]',
      '["rumour","node_version","Node 24"]',
      '["constraint","Node Version","Node 24"]',
      '"Node 24"',
    ])
      assert.deepEqual(problems(text.replace(/^fact: .*$/m, `fact: ${bad}`)), [[11, 'INVALID_FIELD']], bad);
  });

  it('serializes to the documented text and parses back to the same memory', () => {
    assert.equal(serializeMemoryFile(sample()), SAMPLE_TEXT);
    assert.deepEqual(parseMemoryFile(PATH, SAMPLE_TEXT), { ok: true, file: sample() });
  });

  it('accepts CRLF line ends, a byte-order mark, comments, YAML-style spacing and a multi-line body', () => {
    const text = `\uFEFF${SAMPLE_TEXT.replace('tags: ["database","release"]', 'tags: ["database", "release"]\n# reviewed in #12')}More.\n`;
    const parsed = parseMemoryFile(PATH, text.replaceAll('\n', '\r\n'));
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.deepEqual(parsed.file.tags, ['database', 'release']);
    assert.equal(parsed.file.body, `${sample().body}\r\nMore.`.replace('\r\n', '\n'));
  });

  it('names the line of each malformed field, and every problem at once', () => {
    const text = SAMPLE_TEXT.replace('category: procedural', 'category: procedure')
      .replace('tags: ["database","release"]', 'tags: database, release')
      .replace('version: 3', 'version: three')
      .replace('pinned: true', 'owner: me');
    assert.deepEqual(problems(text), [
      [10, 'UNKNOWN_FIELD'],
      [3, 'INVALID_FIELD'],
      [5, 'INVALID_FIELD'],
      [9, 'INVALID_FIELD'],
    ]);
  });

  it('reports a subtype of another category, a missing field, a duplicate and a bad time', () => {
    assert.deepEqual(problems(SAMPLE_TEXT.replace('subtype: workflow', 'subtype: style')), [[4, 'INVALID_FIELD']]);
    assert.deepEqual(problems(SAMPLE_TEXT.replace('id: mem_0f9e8d7c6b5a1a2b3c4d\n', '')), [[10, 'MISSING_FIELD']]);
    assert.deepEqual(problems(SAMPLE_TEXT.replace('version: 3', 'version: 3\nversion: 4')), [[10, 'DUPLICATE_FIELD']]);
    assert.deepEqual(problems(SAMPLE_TEXT.replace('2026-11-20T10:30:00.000Z', 'yesterday')), [[8, 'INVALID_FIELD']]);
    assert.deepEqual(problems(SAMPLE_TEXT.replace('2026-11-20T10:30:00.000Z', '2026-10-01T00:00:00Z')), [
      [8, 'INVALID_FIELD'],
    ]);
  });

  it('reports a file without front matter, an unclosed one, a line that is no field and an empty body', () => {
    assert.deepEqual(problems('Just a note.\n'), [[1, 'MALFORMED_FRONT_MATTER']]);
    assert.deepEqual(problems(SAMPLE_TEXT.replace(/\n---\n/, '\n')), [[1, 'MALFORMED_FRONT_MATTER']]);
    assert.deepEqual(problems(SAMPLE_TEXT.replace('pinned: true', 'pinned true')), [[10, 'MALFORMED_FRONT_MATTER']]);
    assert.deepEqual(problems(SAMPLE_TEXT.replace(sample().body, '   ')), [[12, 'EMPTY_BODY']]);
  });

  it('reports the conflict markers git leaves, on their lines', () => {
    const conflicted = SAMPLE_TEXT.replace(
      'Run the migrations',
      '<<<<<<< HEAD\nRun all the migrations\n=======\nRun the new migrations\n>>>>>>> feature',
    );
    assert.deepEqual(problems(conflicted), [
      [12, 'CONFLICT_MARKERS'],
      [14, 'CONFLICT_MARKERS'],
      [16, 'CONFLICT_MARKERS'],
    ]);
  });

  it('reports a credential by line and kind without repeating it, and never writes one', () => {
    const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const parsed = parseMemoryFile(PATH, SAMPLE_TEXT.replace('before starting', `with token ${key} before starting`));
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.deepEqual(
      parsed.diagnostics.map((diagnostic) => [diagnostic.line, diagnostic.code]),
      [[12, 'SECRET_IN_FILE']],
    );
    assert.ok(!parsed.diagnostics[0].message.includes(key));
    assert.throws(
      () => serializeMemoryFile(sample({ body: `Deploy with ${key}` })),
      (error: unknown) =>
        error instanceof MemoryError && error.code === 'INVALID_INPUT' && !error.message.includes(key),
    );
  });

  it('never throws on arbitrary input', () => {
    for (const text of ['', '---', '---\n---', '---\n:\n---\nx', '\u0000\u0001', '---\nid: "\n---\n']) {
      assert.equal(parseMemoryFile(PATH, text).ok, false, JSON.stringify(text));
    }
  });
});

describe('memory file names', () => {
  it('are a slug of the text and the short id, under .memory/', () => {
    assert.equal(
      memoryFileName('mem_0f9e8d7c6b5a1a2b3c4d', 'Run the migrations (npm run migrate) before starting!'),
      '.memory/run-the-migrations-npm-run-migrate-before-1a2b3c4d.md',
    );
    assert.equal(slugOf('Ünïcödé — naïve café'), 'unicode-naive-cafe');
    assert.equal(slugOf('!!!'), 'memory');
    assert.ok(slugOf('word '.repeat(40)).length <= 48);
  });
});
