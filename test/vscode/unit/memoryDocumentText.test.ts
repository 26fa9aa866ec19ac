import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryRecord } from '../../../src/core/domain/records.ts';
import {
  memoryDocumentLocation,
  memoryDocumentText,
  parseMemoryDocumentQuery,
} from '../../../src/vscode/commands/memoryDocumentText.ts';

const memory = {
  memory_id: 'mem_1',
  user_id: 'project:github.com/acme/app',
  layer: 'project',
  scope_id: 'github.com/acme/app',
  memory_category: 'procedural',
  memory_subtype: 'workflow',
  content: '\n  Deploy: use blue/green <releases> on "Tuesdays"?\nRun make deploy-web after smoke tests.',
  entities: ['make'],
  tags: ['release'],
  importance: 0.8,
  confidence: 0.9,
  access_count: 3,
  pinned: true,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
} as unknown as MemoryRecord;

describe('read-only memory documents', () => {
  it('title the tab with the first line, safe as a file name, and name the memory in the query', () => {
    const location = memoryDocumentLocation(memory);
    assert.equal(location.path, '/Deploy use blue green releases on Tuesdays .md'.replace(' .md', '.md'));
    assert.deepEqual(parseMemoryDocumentQuery(location.query), {
      memoryId: 'mem_1',
      layer: 'project',
      scopeId: 'github.com/acme/app',
    });
  });

  it('cut long titles and fall back to the id for blank content', () => {
    assert.equal(memoryDocumentLocation({ ...memory, content: 'x'.repeat(200) }).path, `/${'x'.repeat(60)}.md`);
    assert.equal(memoryDocumentLocation({ ...memory, content: ' \n ' }).path, '/mem_1.md');
  });

  it('reject queries that do not name a memory', () => {
    assert.equal(parseMemoryDocumentQuery('layer=user&scope=u'), null);
    assert.equal(parseMemoryDocumentQuery('id=mem_1&layer=user'), null);
    assert.equal(parseMemoryDocumentQuery('id=mem_1&layer=planet&scope=u'), null);
    assert.equal(parseMemoryDocumentQuery(''), null);
  });

  it('show the text, what it is, and why it matched', () => {
    const text = memoryDocumentText(memory, 'matched "deploy"');
    assert.ok(text.startsWith('# procedural/workflow (pinned)\n\n\n  Deploy: use blue/green'));
    assert.match(text, /^- layer: project$/m);
    assert.match(text, /^- importance: 0.8, confidence: 0.9, accessed 3 times$/m);
    assert.match(text, /^- entities: make$/m);
    assert.match(text, /^- tags: release$/m);
    assert.match(text, /^- why it matched: matched "deploy"$/m);
    assert.doesNotMatch(memoryDocumentText({ ...memory, tags: [], entities: [] }), /entities:|tags:|why it matched/);
  });
});
