import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeExportFile, type ExportProgress } from '../../../src/vscode/storage/exportFile.ts';
import { parseExport } from '../../../src/vscode/storage/exportFormat.ts';
import { makeMemory } from '../../contract/fixtures.ts';
import { createTestCore } from '../../support/testCore.ts';

test('the editor export streams pages to a 0600 file and reports progress (issue 13.10)', async () => {
  const source = await createTestCore();
  try {
    for (let index = 0; index < 1_234; index++)
      await source.store.insertMemory(makeMemory('alice', { content: `Fact number ${index} about the build` }), null);
    const path = join(source.dataDir, 'export.json');
    const progress: ExportProgress[] = [];
    const result = await writeExportFile(source.core, 'alice', path, (step) => progress.push(step));
    assert.deepEqual(result, { count: 1_234, cancelled: false });
    assert.deepEqual(
      progress.map((step) => step.written),
      [500, 1000, 1234],
      'one report per page',
    );
    assert.ok(progress.every((step) => step.total === 1_234));
    const file = JSON.parse(readFileSync(path, 'utf8')) as { format: string; memories: Array<{ content: string }> };
    assert.equal(parseExport(file).length, 1_234);
    assert.equal(new Set(file.memories.map((memory) => memory.content)).size, 1_234);
    if (process.platform !== 'win32') assert.equal(statSync(path).mode & 0o777, 0o600);

    const empty = join(source.dataDir, 'empty.json');
    assert.deepEqual(await writeExportFile(source.core, 'nobody', empty), { count: 0, cancelled: false });
    assert.deepEqual(parseExport(JSON.parse(readFileSync(empty, 'utf8'))), []);

    const partial = join(source.dataDir, 'partial.json');
    let pages = 0;
    const stopped = await writeExportFile(
      source.core,
      'alice',
      partial,
      () => pages++,
      () => pages >= 1,
    );
    assert.deepEqual(stopped, { count: 500, cancelled: true });
    assert.equal(
      parseExport(JSON.parse(readFileSync(partial, 'utf8'))).length,
      500,
      'a cancelled export is still valid JSON',
    );
  } finally {
    await source.cleanup();
  }
});
