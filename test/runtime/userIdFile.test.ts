import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadOrCreateUserId, USER_ID_FILE } from '../../src/runtime/userIdFile.ts';

const MODULE = new URL('../../src/runtime/userIdFile.ts', import.meta.url).href;

/** One process (a window) asking for the data directory's id, as the extension host does at start. */
function idFromAnotherProcess(dataDir: string, earlier?: string): Promise<string> {
  const script = `import(${JSON.stringify(MODULE)}).then(async (m) => process.stdout.write(await m.loadOrCreateUserId(${JSON.stringify(dataDir)}${earlier ? `, ${JSON.stringify(earlier)}` : ''})))`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

describe('the user id beside the store', () => {
  const root = mkdtempSync(join(tmpdir(), 'fml-user-id-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('is created once, mode 0600, and read back by every later window', async () => {
    const dir = join(root, 'once');
    const first = await loadOrCreateUserId(dir);
    assert.match(first, /^user_[0-9a-f]{16}$/);
    assert.equal(statSync(join(dir, USER_ID_FILE)).mode & 0o777, 0o600);
    assert.equal(await loadOrCreateUserId(dir), first);
    assert.equal(
      await loadOrCreateUserId(dir, 'user_00000000000000aa'),
      first,
      'the file wins over an older globalState id',
    );
    assert.deepEqual(readdirSync(dir), [USER_ID_FILE], 'no temporary file is left behind');
  });

  it('gives windows that start at the same moment the same id (eight processes at once)', async () => {
    const dir = join(root, 'race');
    const ids = await Promise.all(Array.from({ length: 8 }, () => idFromAnotherProcess(dir)));
    assert.equal(new Set(ids).size, 1, `ids: ${ids.join(', ')}`);
    assert.equal(await loadOrCreateUserId(dir), ids[0]);
    assert.deepEqual(readdirSync(dir), [USER_ID_FILE]);
  });

  it('moves the id an earlier version kept in globalState into the file, so its memories stay', async () => {
    const dir = join(root, 'migrate');
    assert.equal(await loadOrCreateUserId(dir, 'user_0123456789abcdef'), 'user_0123456789abcdef');
    assert.equal(await idFromAnotherProcess(dir), 'user_0123456789abcdef', 'a second browser profile reads it');
  });

  it('refuses a file that holds no id with CONFIGURATION_ERROR instead of replacing it', async () => {
    const dir = join(root, 'broken');
    await loadOrCreateUserId(dir);
    writeFileSync(join(dir, USER_ID_FILE), 'two words\n');
    await assert.rejects(loadOrCreateUserId(dir), { code: 'CONFIGURATION_ERROR' });
  });
});
