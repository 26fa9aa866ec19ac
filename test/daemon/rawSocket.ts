import { createConnection, type Socket } from 'node:net';

/** What the daemon did with a raw client's bytes: the text it answered and whether it hung up. */
export interface RawOutcome {
  answered: string;
  closedByServer: boolean;
  /** Bytes the client managed to write before the server hung up (or all of them). */
  written: number;
  ms: number;
}

/**
 * Talks to the memory process as any local program can: a plain socket, bytes as given, no
 * client library. Waits until the server hangs up, or `settleMs` after the last byte went out.
 */
export function rawExchange(
  socketPath: string,
  payload: string | Buffer,
  options: { settleMs?: number; chunkBytes?: number; endAfter?: boolean } = {},
): Promise<RawOutcome> {
  const started = Date.now();
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    const socket: Socket = createConnection(socketPath);
    let answered = '';
    let written = 0;
    let timer: NodeJS.Timeout | null = null;
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      resolve({ answered, closedByServer, written, ms: Date.now() - started });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answered += chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A write into a socket the server already closed: that is the hang-up being tested.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') finish(true);
      else reject(error);
    });
    socket.once('connect', () => {
      const writeNext = (): void => {
        while (written < data.length && !socket.destroyed && !done) {
          const piece = data.subarray(written, written + chunkBytes);
          written += piece.length;
          if (!socket.write(piece)) {
            socket.once('drain', writeNext);
            return;
          }
        }
        if (socket.destroyed || done) return;
        if (options.endAfter) socket.end();
        timer = setTimeout(() => finish(false), options.settleMs ?? 1_000);
      };
      writeNext();
    });
  });
}
