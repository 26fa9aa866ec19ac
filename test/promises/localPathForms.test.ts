import assert from 'node:assert/strict';
import { mkdirSync, openSync, readFileSync, renameSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { errorWithoutLocalPaths, withoutLocalPaths } from '../../src/mcp/localPaths.ts';

/**
 * SECURITY.md, "Disclosure of local paths": MCP clients never see where the data directory lives
 * (and so the account name). Every form a path takes in a message is tried: POSIX, a Windows drive
 * with either slash, UNC, and each of the quotes and punctuation Node, SQLite and our own messages
 * put before one, including the real messages of failing file-system calls.
 */
const ACCOUNT = 'alice-account';
const PATHS = [
  `/home/${ACCOUNT}/.firebolt-memory/memory.db`,
  `C:\\Users\\${ACCOUNT}\\AppData\\fml\\memory.db`,
  `C:/Users/${ACCOUNT}/AppData/fml/memory.db`,
  `d:\\${ACCOUNT}\\fml`,
  `\\\\fileserver\\${ACCOUNT}\\fml`,
];
/** What a message puts right before a path. */
const BEFORE = [' ', '\n', '"', "'", '(', '=', ',', '['];
const AFTER: Record<string, string> = { '"': '"', "'": "'", '(': ')', '[': ']' };

/** The messages Node gives for failing file-system calls on a path (as SQLite and the store pass them on). */
function nodeMessages(path: string): string[] {
  const messages: string[] = [];
  for (const call of [
    () => openSync(path, 'r'),
    () => readFileSync(path),
    () => mkdirSync(`${path}/x/y`),
    () => renameSync(path, `${path}.bak`),
  ]) {
    try {
      call();
    } catch (error) {
      messages.push((error as Error).message);
      continue;
    }
    assert.fail(`a file-system call on ${path} unexpectedly succeeded`);
  }
  return messages;
}

describe('every form of a local path is left out of what MCP clients read', () => {
  for (const path of PATHS) {
    it(`${path}, after each quote and punctuation mark`, () => {
      for (const before of BEFORE) {
        const text = `Could not open the store at${before}${path}${AFTER[before] ?? ''}: disk I/O error`;
        const shown = withoutLocalPaths(text);
        assert.ok(!shown.includes(ACCOUNT), `the account name is shown: ${shown}`);
        assert.ok(shown.includes('<data directory>'), shown);
        assert.ok(shown.startsWith('Could not open the store at'), shown);
      }
    });
  }

  it('the messages of failing file-system calls, as Node words them', () => {
    const path = `/nonexistent-${ACCOUNT}/.firebolt-memory/memory.db`;
    const messages = nodeMessages(path);
    assert.ok(messages.length === 4 && messages.every((message) => message.includes(ACCOUNT)));
    for (const message of messages) {
      const shown = withoutLocalPaths(message);
      assert.ok(!shown.includes(ACCOUNT), `the account name is shown: ${shown}`);
    }
  });

  it('an error keeps its code, and neither its message nor any detail names a path', () => {
    for (const path of PATHS) {
      const error = new MemoryError('STORAGE_FULL', `No space left writing '${path}'`, {
        details: { data_dir: path, file: path, files: [path], nested: { at: `(${path})` } },
      });
      const shown = errorWithoutLocalPaths(error);
      assert.equal(shown.code, 'STORAGE_FULL');
      assert.ok(
        !JSON.stringify({ message: shown.message, details: shown.details }).includes(ACCOUNT),
        JSON.stringify(shown),
      );
    }
  });

  it('URLs and ids are left as written', () => {
    for (const text of [
      'https://api.firebolt.io/query failed for github.com/bob/app',
      'memory mem_1a2b3c4d in project github.com/acme/orders',
      'see http://127.0.0.1:7077/panel',
    ])
      assert.equal(withoutLocalPaths(text), text);
  });
});
