// Where a private key block ends when its END line is missing, too far away or in a long text:
// no character of the key may be left, and no text after it may be taken.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findPrivateKeyBlocks } from '../../../src/core/safety/privateKeyBlock.ts';
import { redactSecrets } from '../../../src/core/safety/secretDetector.ts';

// Assembled from parts so this file never itself looks like it holds a key.
const j = (...parts: string[]): string => parts.join('');
const BEGIN = j('-----BEGIN ', 'RSA PRIVATE KEY-----');
const END = j('-----END ', 'RSA PRIVATE KEY-----');
const LINE = [
  'MIIEowIBAAKCAQEA1x2y3z4AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/abc',
  'dEfGhIjKlMnOpQrStUvWxYz0123456789+/abcdefghijklmnopqrstuvwxyzABCD',
];
const SHORT = 'Qk9EWQ==';
const KEY = '[REDACTED:private-key-block]';

describe('a private key block cut off before its END line', () => {
  it('takes a short last line that ends the text or its line (LF and CRLF)', () => {
    assert.equal(redactSecrets(j(BEGIN, '\n', LINE[0], '\n', SHORT)), KEY);
    assert.equal(
      redactSecrets(j(BEGIN, '\n', LINE[0], '\n', SHORT, '\n\nsorry, half of it')),
      `${KEY}\n\nsorry, half of it`,
    );
    assert.equal(
      redactSecrets(j(BEGIN, '\r\n', LINE[0], '\r\n', SHORT, '\r\n\r\nsorry, half of it')),
      `${KEY}\r\n\r\nsorry, half of it`,
    );
  });

  it('keeps every blank line after the block', () => {
    assert.equal(
      redactSecrets(j(BEGIN, '\n', LINE[0], '\n', LINE[1], '\n\n\nsorry, half of it')),
      `${KEY}\n\n\nsorry, half of it`,
    );
  });

  it('follows a key pasted on one line with its parts separated by several spaces', () => {
    assert.equal(redactSecrets(j('key: ', BEGIN, '  ', LINE[0], '  ', LINE[1], '  ', SHORT)), `key: ${KEY}`);
  });

  it('takes the armour headers of an encrypted key', () => {
    assert.equal(
      redactSecrets(
        j(
          BEGIN,
          '\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n',
          LINE[0],
          '\n',
          LINE[1],
          '\n\nsorry, half of it',
        ),
      ),
      `${KEY}\n\nsorry, half of it`,
    );
  });

  it('stops at prose: a word, a line without spaces, a sentence', () => {
    assert.equal(redactSecrets(j(BEGIN, '\n', LINE[0], '\n', LINE[1], '\n\nthanks!\nbye')), `${KEY}\n\nthanks!\nbye`);
    assert.equal(redactSecrets(j(BEGIN, '\n', LINE[0], ' and the rest later')), `${KEY} and the rest later`);
  });
});

describe('a private key block and its END line', () => {
  // `lines` base64 key lines joined by newlines.
  const body = (lines: number) => Array.from({ length: lines }, (_, index) => LINE[index % 2]).join('\n');

  it('an END line 64 KiB after BEGIN still closes the block', () => {
    // Key lines, then one shorter line, so that exactly 65,536 characters lie between BEGIN and END.
    const lines = body(Math.floor((64 * 1024 - 2) / (Math.max(LINE[0].length, LINE[1].length) + 1)) - 1);
    const text = j(BEGIN, '\n', lines, '\n', 'A'.repeat(64 * 1024 - 2 - lines.length), END, '\nafter');
    assert.equal(text.indexOf(END) - BEGIN.length, 64 * 1024);
    assert.equal(redactSecrets(text), `${KEY}\nafter`);
  });

  it('an END line further away does not swallow the text between: the cut-off block ends at its last key line', () => {
    const prose = 'We rotated the key after the incident. '.repeat(2000);
    const text = j(BEGIN, '\n', LINE[0], '\n\n', prose, END, ' tail');
    assert.equal(redactSecrets(text), j(KEY, '\n\n', prose, END, ' tail'));
  });

  it('a key at the end of a long text is found whole', () => {
    const log = 'build step ok\n'.repeat(6000);
    assert.equal(redactSecrets(j(log, BEGIN, '\n', LINE[0], '\n', END, '\nend')), j(log, KEY, '\nend'));
  });

  it("reports a block's position in the text", () => {
    const text = j('see ', BEGIN, '\n', LINE[0], '\n', END);
    assert.deepEqual(findPrivateKeyBlocks(text), [{ kind: 'private-key-block', index: 4, length: text.length - 4 }]);
  });
});

describe('PuTTY key files', () => {
  const putty = (version: string) =>
    j(
      'PuTTY-User-Key-File-',
      version,
      ': ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n',
      LINE[0],
      '\nPrivate-MAC: 0a1b2c3d4e5f',
    );

  it('are found where they start in the text', () => {
    assert.equal(
      redactSecrets(j('Here is my key:\n', putty('3'), '\nthanks')),
      j('Here is my key:\n', KEY, '\nthanks'),
    );
  });

  it('are found whatever the format version, including two-digit ones', () => {
    assert.equal(redactSecrets(putty('12')), KEY);
  });
});
