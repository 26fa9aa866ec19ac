import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The HTTP server's bearer token, kept in the data directory (mode 0600) so client
 * configurations keep working across restarts; `rotate` makes a new one.
 */
export function loadOrCreateToken(dataDir: string, rotate = false): string {
  const path = join(dataDir, 'http-token');
  if (!rotate && existsSync(path)) {
    const token = readFileSync(path, 'utf8').trim();
    if (token.length >= 32) return token;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}
