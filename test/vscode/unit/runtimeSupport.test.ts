import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { loadNodeSqlite, MINIMUM_VSCODE, sqliteRuntimeProblem } from '../../../src/vscode/runtimeSupport.ts';

const facts = { node: '22.17.0', electron: '37.2.0', editor: '1.103.0' };

describe('activation check of node:sqlite', () => {
  it('passes on this Node, whose node:sqlite works', () => {
    assert.equal(
      sqliteRuntimeProblem(loadNodeSqlite, { node: process.versions.node, electron: undefined, editor: 'test' }),
      null,
    );
  });

  it('explains a build whose sqlite binding is missing (electron/electron#47671), naming the runtime and the fix', () => {
    const message = sqliteRuntimeProblem(() => {
      throw new Error('No such binding: sqlite');
    }, facts);
    assert.ok(message);
    assert.match(message, /No such binding: sqlite/);
    assert.match(message, /Electron 37\.2\.0/);
    assert.match(message, new RegExp(`at least ${MINIMUM_VSCODE.replaceAll('.', '\\.')}`));
  });

  it('explains a runtime without the builtin at all', () => {
    assert.match(sqliteRuntimeProblem(() => undefined, facts) ?? '', /does not provide/);
    assert.match(sqliteRuntimeProblem(() => ({}), facts) ?? '', /does not provide/);
  });

  it('asks the manifest for the same minimum VS Code', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      engines: { vscode: string };
    };
    assert.equal(manifest.engines.vscode, `^${MINIMUM_VSCODE}`);
  });
});
