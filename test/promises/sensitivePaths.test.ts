import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSensitivePath, PathFilter } from '../../src/core/editor/pathPrivacy.ts';

/**
 * docs/editor.md "Privacy": ".env*, key and credential files are never captured", whatever the
 * settings say. Every member of the refusal list gets its own sample (a list tested by sample lets
 * a bug in an untested member pass), at the workspace root, nested, and as an absolute path; and
 * near-miss names that only look like one are captured.
 */
const REFUSED: readonly string[] = [
  '.env',
  '.env.local',
  '.env.production',
  '.ENV',
  '.envrc',
  ...['pem', 'key', 'p12', 'pfx', 'jks', 'keystore', 'kdbx', 'asc', 'gpg', 'ppk'].map((ext) => `server.${ext}`),
  'TLS.PEM',
  ...['rsa', 'dsa', 'ecdsa', 'ed25519'].flatMap((algorithm) => [`id_${algorithm}`, `id_${algorithm}.pub`]),
  ...['npmrc', 'pypirc', 'netrc', 'pgpass', 'git-credentials', 'htpasswd'].map((name) => `.${name}`),
  'credentials',
  'credentials.json',
  ...['secret', 'secrets'].flatMap((name) => ['json', 'yaml', 'yml', 'toml'].map((ext) => `${name}.${ext}`)),
  'service-account.json',
  'service_account-prod.json',
  'serviceaccount.json',
];

/** Files in these folders are refused whatever their name. */
const REFUSED_DIRS: readonly string[] = ['.ssh', '.aws', '.gnupg', '.docker'];

/** Names that only look like a credential file. */
const CAPTURED: readonly string[] = [
  'env.ts',
  '.env-guide.md',
  'environment.yml',
  'server.pem.md',
  'keys.ts',
  'keyboard.ts',
  'id_rsa_notes.md',
  'my_id_rsa',
  'npmrc.md',
  'credentials.ts',
  'secrets.md',
  'secret_sauce.json',
  'account-service.json',
  'ssh/config',
  'aws/config',
  'docker/compose.yml',
];

describe('every credential file name and folder is refused for capture, and only those', () => {
  for (const name of REFUSED) {
    it(`refuses ${name} at the root, nested and as an absolute path, whatever the globs`, () => {
      for (const path of [name, `app/config/${name}`, `/home/me/project/${name}`, `C:\\work\\app\\${name}`])
        assert.equal(isSensitivePath(path), true, path);
      assert.equal(new PathFilter([]).allows(`app/${name}`, `/work/app/${name}`), false);
    });
  }
  for (const dir of REFUSED_DIRS) {
    it(`refuses every file under ${dir}/`, () => {
      for (const path of [`${dir}/config`, `/home/me/${dir}/notes.txt`, `C:\\Users\\me\\${dir}\\config`])
        assert.equal(isSensitivePath(path), true, path);
    });
  }
  for (const name of CAPTURED) {
    it(`captures the look-alike ${name}`, () => {
      assert.equal(isSensitivePath(name), false, name);
      assert.equal(isSensitivePath(`src/${name}`), false, `src/${name}`);
      assert.equal(new PathFilter([]).allows(`src/${name}`), true);
    });
  }
});
