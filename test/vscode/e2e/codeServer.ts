import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';

/** Where scripts/setup-code-server.sh installs code-server, and the browser the suite drives. */
export const CODE_SERVER_HOME = process.env.FML_CODE_SERVER_HOME ?? join(homedir(), '.cache', 'fml-code-server');
export const CODE_SERVER_ENTRY =
  process.env.FML_CODE_SERVER_BIN ?? join(CODE_SERVER_HOME, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const CHROMIUM = process.env.FML_CHROMIUM ?? '/usr/bin/chromium';
export const ROOT = new URL('../../../', import.meta.url).pathname;
/** code-server 4.139 needs Node 24: the pinned one, which also runs the tests. */
export const NODE = join(ROOT, 'node_modules', 'node', 'bin', 'node');

/** Why the suite cannot run here, or null when everything it needs is installed. */
export function missingPrerequisite(): string | null {
  if (!existsSync(CODE_SERVER_ENTRY))
    return `code-server is not installed (${CODE_SERVER_ENTRY}); run scripts/setup-code-server.sh`;
  if (!existsSync(CHROMIUM))
    return `chromium is not installed (${CHROMIUM}); run scripts/setup-code-server.sh or apt-get install chromium`;
  if (!existsSync(join(ROOT, 'dist', 'extension.js'))) return 'dist/extension.js is missing; run npm run build';
  return null;
}

/** Packages the extension as a .vsix, the file a user installs; fails with vsce's own output. */
export function packageExtension(vsix: string): void {
  const packaged = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'vsce'),
    [
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--skip-license',
      '--readme-path',
      'docs/extension.md',
      '--out',
      vsix,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (packaged.status !== 0) throw new Error(`vsce package failed:\n${packaged.stdout}\n${packaged.stderr}`);
}

/** Headless chromium with a fresh profile in profileDir (its own localStorage and IndexedDB). */
export async function launchBrowser(profileDir: string): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Dirs {
  userData: string;
  extensions: string;
}

export function installExtension(vsix: string, dirs: Dirs): void {
  const result = spawnSync(
    NODE,
    [
      CODE_SERVER_ENTRY,
      '--user-data-dir',
      dirs.userData,
      '--extensions-dir',
      dirs.extensions,
      '--install-extension',
      vsix,
      '--force',
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (result.status !== 0)
    throw new Error(`code-server --install-extension failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

export interface RunningCodeServer {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export async function startCodeServer(
  folder: string,
  dirs: Dirs,
  env: Record<string, string>,
): Promise<RunningCodeServer> {
  const child = spawn(
    NODE,
    [
      CODE_SERVER_ENTRY,
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--user-data-dir',
      dirs.userData,
      '--extensions-dir',
      dirs.extensions,
      folder,
    ],
    {
      env: { ...process.env, ...env, PATH: `${join(ROOT, 'node_modules', 'node', 'bin')}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
