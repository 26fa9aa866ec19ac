/**
 * What counting one memory's tokens costs on the worst texts an agent can send at the 100 KB
 * content limit: an unbroken run of one letter (a single byte-pair piece), of a two-byte letter,
 * prose, and base64. One fresh counter per text (no piece or text cache to hit); CPU of the count.
 *   npm run bench:tokens
 */
import { Buffer } from 'node:buffer';
import { TiktokenCounter } from '../src/core/tokens/tokenCounter.ts';

const TEXTS: Array<[string, string]> = [
  ['one letter, 102,400 bytes unbroken', 'a'.repeat(102_400)],
  ['é, 102,400 bytes unbroken', 'é'.repeat(51_200)],
  ['prose, 100 KB', 'the quick brown fox jumps over the lazy dog. '.repeat(2_300)],
  ['base64, 100 KB', Buffer.from(Array.from({ length: 76_800 }, (_, i) => (i * 2654435761) & 255)).toString('base64')],
];

console.log('text | tokens | CPU ms');
for (const [name, text] of TEXTS) {
  const counter = new TiktokenCounter();
  counter.count('load the rank table first');
  const start = process.cpuUsage();
  const tokens = counter.count(text);
  const used = process.cpuUsage(start);
  console.log(`${name} | ${tokens} | ${((used.user + used.system) / 1000).toFixed(0)}`);
}
