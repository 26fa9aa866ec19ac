// Runs test/vscode/electron/suite.cjs inside a desktop VS Code downloaded by @vscode/test-electron:
//   node_modules/.bin/node test/vscode/electron/run.ts
// Needs network access to update.code.visualstudio.com (or a cached .vscode-test/ folder); it is not
// part of `npm test`, which uses code-server (test/vscode/e2e). See test/vscode/README.md.
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../../', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'fml-electron-'));
const workspace = join(tmp, 'demo-app');
const probeDir = join(tmp, 'probe');
mkdirSync(workspace, { recursive: true });
mkdirSync(probeDir, { recursive: true });
spawnSync('git', ['init', '-q', '-b', 'main', workspace]);
spawnSync('git', ['-C', workspace, 'remote', 'add', 'origin', 'git@github.com:fml-e2e/demo-app.git']);
writeFileSync(join(workspace, 'broken.json'), '{\n  "name": "demo",\n  "version": 1,,\n}\n');

await runTests({
  version: process.env.FML_VSCODE_VERSION ?? 'stable',
  extensionDevelopmentPath: root,
  extensionTestsPath: join(root, 'test', 'vscode', 'electron', 'suite.cjs'),
  launchArgs: [workspace, '--disable-extensions', '--user-data-dir', join(tmp, 'user-data')],
  extensionTestsEnv: { FML_E2E: '1', FML_E2E_DIR: probeDir, FML_E2E_WORKSPACE: workspace },
});
console.log('VS Code desktop suite passed.');
