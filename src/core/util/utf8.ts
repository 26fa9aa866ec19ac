/**
 * The length of `text` in UTF-8 bytes, as `Buffer.byteLength(text, 'utf8')` counts it (a lone
 * surrogate is the 3-byte U+FFFD), without Node's Buffer: the core runs where Node does not, and
 * the byte limits it enforces (content, metadata, export pages) must not change with the host.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
