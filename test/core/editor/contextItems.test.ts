import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeActiveEditor,
  describeDiagnostics,
  describeFailedCommands,
  describeFailedTask,
  describeGitBranch,
  describeVisibleEditors,
} from '../../../src/core/editor/contextItems.ts';

test('active editor names the file, cursor and selection', () => {
  const text = describeActiveEditor({
    path: 'src/a.ts',
    languageId: 'typescript',
    lineCount: 40,
    cursorLine: 7,
    selection: { startLine: 5, endLine: 7, text: 'const a = 1;' },
  });
  assert.equal(
    text,
    'Active file: src/a.ts (typescript, 40 lines), cursor at line 7.\nSelected lines 5-7:\nconst a = 1;',
  );
  assert.equal(describeActiveEditor(null), null);
});

test('a selection holding a secret is left out, the file is still named', () => {
  const text = describeActiveEditor({
    path: 'a.ts',
    languageId: 'ts',
    lineCount: 1,
    cursorLine: 1,
    selection: { startLine: 1, endLine: 1, text: ['AKIA', 'IOSFODNN7EXAMPLE'].join('') },
  });
  assert.equal(text, 'Active file: a.ts (ts, 1 lines), cursor at line 1.');
});

test('diagnostics list errors before warnings with file, line and message', () => {
  const text = describeDiagnostics([
    { path: 'b.ts', line: 3, severity: 'warning', message: 'unused x' },
    { path: 'a.ts', line: 9, severity: 'error', message: "Cannot find name 'y'.", source: 'ts', code: '2304' },
  ]);
  assert.equal(
    text,
    "Problems: 1 error(s), 1 warning(s).\n- error a.ts:9 [ts 2304]: Cannot find name 'y'.\n- warning b.ts:3: unused x",
  );
  assert.equal(describeDiagnostics([]), null);
});

test('failed commands newest first, bounded, secrets dropped', () => {
  const commands = [1, 2, 3, 4, 5, 6].map((n) => ({ commandLine: `make step${n}`, exitCode: n }));
  commands.push({
    commandLine: [
      'curl -H "Authorization: Bearer eyJ',
      'hbGciOiJIUzI1NiJ9.eyJ',
      'zdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijkl"',
    ].join(''),
    exitCode: 7,
  });
  const text = describeFailedCommands(commands) ?? '';
  assert.deepEqual(text.split('\n'), [
    'Recent failed terminal commands:',
    '- `make step6` exited with code 6',
    '- `make step5` exited with code 5',
    '- `make step4` exited with code 4',
    '- `make step3` exited with code 3',
    '- `make step2` exited with code 2',
  ]);
});

test('task, branch and open editors', () => {
  assert.equal(
    describeFailedTask({ name: 'test', exitCode: 1, source: 'npm' }),
    'Last failed task: "test" (npm) exited with code 1.',
  );
  assert.equal(describeGitBranch('main', 'repo'), 'Git branch: main in repo.');
  assert.equal(describeGitBranch(null, null), null);
  assert.equal(describeVisibleEditors(['a.ts', 'b.ts', 'a.ts']), 'Open editors: a.ts, b.ts.');
  assert.equal(describeVisibleEditors([]), null);
});
