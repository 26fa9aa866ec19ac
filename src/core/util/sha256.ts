/**
 * SHA-256 of a string's UTF-8 bytes, in plain TypeScript: the core runs wherever the memory layer
 * does (the editor, the memory process, a browser frame) and so imports no `node:crypto`. The
 * digests are stored (code fingerprints, project scopes, imported memories' ids), so they must stay
 * byte-for-byte the SHA-256 the earlier `node:crypto` calls produced; the test compares them.
 */

const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotateRight = (word: number, bits: number): number => (word >>> bits) | (word << (32 - bits));

/** The 32-byte digest of `text` encoded as UTF-8 (lone surrogates become U+FFFD, as Node's encoder does). */
export function sha256(text: string): Uint8Array {
  const message = new TextEncoder().encode(text);
  // The message, a 0x80 byte, zeros, and the bit length as a 64-bit big-endian integer, in 64-byte blocks.
  const blockCount = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blockCount * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bitLength = message.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x1_0000_0000));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  const state = [...INITIAL_STATE];
  const schedule = new Uint32Array(64);
  for (let block = 0; block < blockCount; block++) {
    for (let i = 0; i < 16; i++) schedule[i] = view.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = schedule[i - 15]!;
      const w2 = schedule[i - 2]!;
      const s0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >>> 3);
      const s1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >>> 10);
      schedule[i] = schedule[i - 16]! + s0 + schedule[i - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, h] = state as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const s1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25);
      const choice = (e & f) ^ (~e & g);
      const t1 = (h + s1 + choice + ROUND_CONSTANTS[i]! + schedule[i]!) | 0;
      const s0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + majority) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    const round = [a, b, c, d, e, f, g, h];
    for (let i = 0; i < 8; i++) state[i] = (state[i]! + round[i]!) | 0;
  }

  const digest = new Uint8Array(32);
  const digestView = new DataView(digest.buffer);
  for (let i = 0; i < 8; i++) digestView.setUint32(i * 4, state[i]! >>> 0);
  return digest;
}

/** The digest as 64 lowercase hex digits (`createHash('sha256').digest('hex')`). */
export function sha256Hex(text: string): string {
  let hex = '';
  for (const byte of sha256(text)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The digest in unpadded base64url, 43 characters (`createHash('sha256').digest('base64url')`). */
export function sha256Base64Url(text: string): string {
  const bytes = sha256(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += BASE64URL[(chunk >>> (18 - 6 * c)) & 63];
  }
  return out;
}
