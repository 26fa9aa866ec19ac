/**
 * A frame the memory process refuses, and drops the connection for: longer than the connection's
 * current limit, not a frame (bad JSON, wrong shape, unknown op), or anything but `hello` before
 * the secret was checked.
 */
export class FrameError extends Error {
  readonly code: 'FRAME_TOO_LARGE' | 'FRAME_MALFORMED' | 'FRAME_UNAUTHENTICATED';
  constructor(code: FrameError['code'], message: string) {
    super(message);
    this.name = 'FrameError';
    this.code = code;
  }
}

/**
 * Splits a character stream into frames, one JSON value per line. Typed arrays (embeddings)
 * travel as tagged arrays, so a Float32Array arrives as one. A line longer than `maxChars()` (read
 * on every chunk, so a connection's limit can grow once it is authenticated) throws as soon as
 * the pending part passes it: an endless line is never buffered whole. After a throw the reader
 * is spent; its connection is dropped.
 */
export class FrameReader {
  private pending: string[] = [];
  private pendingChars = 0;
  private readonly onFrame: (frame: unknown) => void;
  private readonly maxChars: () => number;

  constructor(onFrame: (frame: unknown) => void, maxChars: () => number = () => Number.POSITIVE_INFINITY) {
    this.onFrame = onFrame;
    this.maxChars = maxChars;
  }

  push(chunk: string): void {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      const tail = chunk.slice(start, newline);
      start = newline + 1;
      this.requireWithinLimit(this.pendingChars + tail.length);
      const line = this.pending.length === 0 ? tail : this.pending.join('') + tail;
      this.pending = [];
      this.pendingChars = 0;
      if (line.length > 0) this.onFrame(parseLine(line));
    }
    if (start === chunk.length) return;
    const rest = start === 0 ? chunk : chunk.slice(start);
    this.requireWithinLimit(this.pendingChars + rest.length);
    this.pending.push(rest);
    this.pendingChars += rest.length;
  }

  private requireWithinLimit(chars: number): void {
    const limit = this.maxChars();
    if (chars > limit) {
      this.pending = [];
      this.pendingChars = 0;
      throw new FrameError('FRAME_TOO_LARGE', `A frame longer than ${limit} characters.`);
    }
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line, revive);
  } catch (error) {
    throw new FrameError('FRAME_MALFORMED', `A frame that is not JSON: ${(error as Error).message}`);
  }
}

export function encodeFrameLine(frame: unknown): string {
  return `${JSON.stringify(frame, replace)}\n`;
}

function replace(_key: string, value: unknown): unknown {
  if (value instanceof Float32Array) return { $f32: Array.from(value) };
  return value;
}

function revive(_key: string, value: unknown): unknown {
  if (
    value !== null &&
    typeof value === 'object' &&
    '$f32' in value &&
    Array.isArray((value as { $f32: unknown }).$f32)
  ) {
    return Float32Array.from((value as { $f32: number[] }).$f32);
  }
  return value;
}
