import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CaptureSink, type Timers } from '../../../src/core/editor/captureSink.ts';
import { describeActiveEditor } from '../../../src/core/editor/contextItems.ts';
import { CREDENTIAL_CORPUS } from '../safety/credentialCorpus.ts';
import { LOOK_ALIKE_CORPUS } from '../safety/lookAlikeCorpus.ts';

/** Timers that never fire: flush() alone drives the writes. */
const idleTimers: Timers = { set: () => 0, clear: () => undefined };

async function captured(contents: readonly string[]): Promise<Array<string | null>> {
  const writes: Array<string | null> = [];
  const sink = new CaptureSink({
    writer: { write: async (_slot, content) => void writes.push(content) },
    delayMs: 500,
    timers: idleTimers,
  });
  for (const [index, content] of contents.entries()) sink.submit(`slot-${index}`, content);
  await sink.flush();
  return writes;
}

test('editor capture writes none of the credential corpus', async () => {
  assert.deepEqual(await captured(CREDENTIAL_CORPUS.map((sample) => `Terminal output:\n${sample.text}`)), []);
});

test('editor capture writes every look-alike unchanged', async () => {
  assert.deepEqual((await captured(LOOK_ALIKE_CORPUS)).sort(), [...LOOK_ALIKE_CORPUS].sort());
});

test('a selection holding a credential the old detector missed is left out of the active-editor item, the file is still named', () => {
  const sample = CREDENTIAL_CORPUS.find((entry) => entry.kind === 'aws-secret-key' && entry.text.startsWith('My AWS'));
  assert.ok(sample);
  const text = describeActiveEditor({
    path: 'notes/aws.md',
    languageId: 'markdown',
    lineCount: 30,
    cursorLine: 3,
    selection: { text: sample.text, startLine: 1, endLine: 9 },
  });
  assert.ok(text?.startsWith('Active file: notes/aws.md'));
  for (const secret of sample.secrets) assert.ok(!text?.includes(secret));
});
