import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
const PROJECT = 'acme';
const MIGRATIONS = 'Run the database migrations with npm run migrate before starting the server.';

interface Recalled {
  memories: Array<{ memory_id: string; content: string; metadata: Record<string, unknown> }>;
}

/** One developer: a clone of the shared repository, a data directory, and `fml serve --repo-memories` over stdio. */
interface Developer {
  name: string;
  clone: string;
  client: Client;
  /** Everything the server wrote to stderr: the sync's report lines. */
  log: () => string;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function memoryFiles(clone: string): string[] {
  const folder = join(clone, '.memory');
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.md')) : [];
}

async function recall(dev: Developer, query: string): Promise<{ data: Recalled; text: string }> {
  const answer = await dev.client.callTool({ name: 'recall_memories', arguments: { query, min_similarity: 0 } });
  assert.ok(!answer.isError, JSON.stringify(answer.content));
  return {
    data: answer.structuredContent as Recalled,
    text: (answer.content as Array<{ text: string }>).map((part) => part.text).join('\n'),
  };
}

async function storeProject(dev: Developer, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const stored = await dev.client.callTool({
    name: 'store_memory',
    arguments: { content, memory_category: 'procedural', memory_subtype: 'workflow', layer: 'project', ...extra },
  });
  assert.ok(!stored.isError, JSON.stringify(stored.content));
  return (stored.structuredContent as { memory_id: string }).memory_id;
}

/**
 * Issue #34's "done when": two developers, each with a clone of one git repository, a data
 * directory of their own, and the built CLI serving MCP over stdio with --repo-memories. What one
 * shares reaches the other only through git.
 */
describe('project memories shared through a git repository (fml serve --repo-memories)', () => {
  const base = mkdtempSync(join(tmpdir(), 'fml-repo-e2e-'));
  const origin = join(base, 'origin.git');
  const developers: Developer[] = [];
  let alice: Developer;
  let bob: Developer;

  async function start(name: string, author: string): Promise<Developer> {
    const clone = join(base, name);
    git(base, 'clone', '-q', origin, clone);
    git(clone, 'config', 'user.name', author);
    git(clone, 'config', 'user.email', `${name}@example.com`);
    git(clone, 'config', 'pull.rebase', 'false');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        cli,
        'serve',
        '--stdio',
        '--data-dir',
        join(base, `${name}-data`),
        '--user',
        name,
        '--project',
        PROJECT,
        '--workspace',
        clone,
        '--repo-memories',
      ],
      env: { ...(process.env as Record<string, string>), FML_EMBEDDING_PROVIDER: 'none' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: `repo-e2e-${name}`, version: '1' });
    await client.connect(transport);
    const dev = { name, clone, client, log: () => stderr };
    developers.push(dev);
    return dev;
  }

  before(async () => {
    git(base, 'init', '-q', '--bare', '-b', 'main', origin);
    const seed = join(base, 'seed');
    git(base, 'clone', '-q', origin, seed);
    writeFileSync(join(seed, 'README.md'), '# acme\n');
    git(seed, '-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'add', '.');
    git(seed, '-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '-m', 'start');
    git(seed, 'push', '-q', 'origin', 'HEAD:main');
    alice = await start('alice', 'Alice');
    bob = await start('bob', 'Bob');
  });

  after(async () => {
    for (const dev of developers) await dev.client.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('A shares and commits; B pulls and recalls it, with the commit and author it came from', async () => {
    const id = await storeProject(alice, MIGRATIONS);
    const [name] = await eventually('the file in A/.memory', async () => {
      const names = memoryFiles(alice.clone);
      return names.length > 0 ? names : null;
    });
    assert.match(readFileSync(join(alice.clone, '.memory', name), 'utf8'), new RegExp(`^---\\nid: ${id}\\n`));
    git(alice.clone, 'add', '.memory');
    git(alice.clone, 'commit', '-q', '-m', 'share the migrations memory');
    git(alice.clone, 'push', '-q', 'origin', 'main');
    const sha = git(alice.clone, 'rev-parse', 'HEAD').trim();

    git(bob.clone, 'pull', '-q', 'origin', 'main');
    const found = await eventually('B recalls the shared memory', async () => {
      const answer = await recall(bob, 'how do I run the database migrations');
      return answer.data.memories.some((memory) => memory.memory_id === id) ? answer : null;
    });
    assert.match(
      found.text,
      new RegExp(`\\[from \\.memory/${name.replace('.', '\\.')} @${sha.slice(0, 7)} by Alice\\]`),
    );
    // A sees its own commit too, once the sync notices it.
    await eventually('A knows its commit', async () =>
      (await recall(alice, 'database migrations')).text.includes(`@${sha.slice(0, 7)} by Alice`),
    );
  });

  it('B edits the file and commits; A pulls and sees the edit', async () => {
    const [name] = memoryFiles(bob.clone);
    const path = join(bob.clone, '.memory', name);
    writeFileSync(path, readFileSync(path, 'utf8').replace('npm run migrate', 'npm run db:migrate'));
    git(bob.clone, 'commit', '-q', '-am', 'the migrate script was renamed');
    git(bob.clone, 'push', '-q', 'origin', 'main');
    // B's own store follows its edit.
    await eventually('B follows its own edit', async () =>
      (await recall(bob, 'database migrations')).data.memories.some((m) => m.content.includes('db:migrate')),
    );
    git(alice.clone, 'pull', '-q', 'origin', 'main');
    const edited = await eventually('A sees the edit', async () => {
      const answer = await recall(alice, 'database migrations');
      return answer.data.memories.find((m) => m.content.includes('npm run db:migrate'));
    });
    assert.equal(edited.content, MIGRATIONS.replace('npm run migrate', 'npm run db:migrate'));
  });

  it('writes the pinned project memories into AGENTS.md between the markers, keeping the rest', async () => {
    // Pinned in the repository, where the team reviews it.
    const [name] = memoryFiles(alice.clone);
    const path = join(alice.clone, '.memory', name);
    writeFileSync(path, readFileSync(path, 'utf8').replace('pinned: false', 'pinned: true'));
    await eventually('A pins it', async () => {
      const answer = await recall(alice, 'database migrations');
      return answer.data.memories.some((m) => m.content.includes('migrations') && (m as { pinned?: boolean }).pinned);
    });
    git(alice.clone, 'commit', '-q', '-am', 'pin the migrations memory');
    writeFileSync(join(alice.clone, 'AGENTS.md'), '# Agents\n\nHand-written rules stay.\n');
    const output = execFileSync(
      process.execPath,
      [
        cli,
        'export',
        '--agents-md',
        '--workspace',
        alice.clone,
        '--data-dir',
        join(base, 'alice-data'),
        '--project',
        PROJECT,
      ],
      { encoding: 'utf8', env: { ...process.env, FML_EMBEDDING_PROVIDER: 'none' } },
    );
    assert.match(output, /^wrote AGENTS\.md: 1 pinned project memory of "acme"/);
    const agents = readFileSync(join(alice.clone, 'AGENTS.md'), 'utf8');
    assert.ok(agents.startsWith('# Agents\n\nHand-written rules stay.\n\n<!-- fml:begin -->\n'));
    assert.match(
      agents,
      /- Run the database migrations with npm run db:migrate before starting the server\. \(\.memory\/.+\.md\)\n/,
    );
    assert.ok(agents.endsWith('<!-- fml:end -->\n'));
    rmSync(join(alice.clone, 'AGENTS.md'));
  });

  it('a conflicting change on two branches is a conflict in one file; once git resolves it, the store follows', async () => {
    const [name] = memoryFiles(alice.clone);
    const alicePath = join(alice.clone, '.memory', name);
    const bobPath = join(bob.clone, '.memory', name);
    git(bob.clone, 'pull', '-q', 'origin', 'main');
    writeFileSync(
      alicePath,
      readFileSync(alicePath, 'utf8').replace('before starting the server', 'before starting the API server'),
    );
    git(alice.clone, 'commit', '-q', '-am', 'A: the API server');
    writeFileSync(
      bobPath,
      readFileSync(bobPath, 'utf8').replace('before starting the server', 'before starting the worker'),
    );
    git(bob.clone, 'commit', '-q', '-am', 'B: the worker');
    git(bob.clone, 'push', '-q', 'origin', 'main');
    await eventually('A follows its own edit', async () =>
      (await recall(alice, 'database migrations')).data.memories.some((m) => m.content.includes('API server')),
    );

    assert.throws(() => git(alice.clone, 'pull', '-q', 'origin', 'main'));
    assert.match(
      git(alice.clone, 'status', '--porcelain'),
      new RegExp(`^UU \\.memory/${name.replace('.', '\\.')}$`, 'm'),
    );
    assert.match(readFileSync(alicePath, 'utf8'), /^<<<<<<< /m);
    await eventually('the conflict is reported with its file and line', async () =>
      new RegExp(`\\.memory/${name.replace('.', '\\.')}:\\d+: CONFLICT_MARKERS`).test(alice.log()),
    );
    // Mid-merge, the memory keeps its last good version: neither side, no markers, not forgotten.
    const during = (await recall(alice, 'database migrations')).data.memories.find((m) =>
      m.content.includes('migrations'),
    );
    assert.equal(
      during?.content,
      MIGRATIONS.replace('npm run migrate', 'npm run db:migrate').replace('the server', 'the API server'),
    );

    const resolved = readFileSync(alicePath, 'utf8')
      .replace(/^<<<<<<< [^\n]*\n([\s\S]*?)^=======\n[\s\S]*?^>>>>>>> [^\n]*\n/m, '$1')
      .replace('before starting the API server', 'before starting the API server or the worker');
    writeFileSync(alicePath, resolved);
    git(alice.clone, 'commit', '-q', '-am', 'merge: both servers');
    git(alice.clone, 'push', '-q', 'origin', 'main');
    await eventually('A follows the resolution', async () =>
      (await recall(alice, 'database migrations')).data.memories.some((m) =>
        m.content.includes('API server or the worker'),
      ),
    );
    git(bob.clone, 'pull', '-q', 'origin', 'main');
    await eventually('B follows the resolution', async () =>
      (await recall(bob, 'database migrations')).data.memories.some((m) =>
        m.content.includes('API server or the worker'),
      ),
    );
  });

  it('a deletion in the repository propagates to the other developer', async () => {
    const [name] = memoryFiles(bob.clone);
    git(bob.clone, 'rm', '-q', join('.memory', name));
    git(bob.clone, 'commit', '-q', '-m', 'the migrations memory is obsolete');
    git(bob.clone, 'push', '-q', 'origin', 'main');
    git(alice.clone, 'pull', '-q', 'origin', 'main');
    await eventually('A forgets it', async () =>
      (await recall(alice, 'database migrations')).data.memories.every((m) => !m.content.includes('migrations')),
    );
    await eventually('B forgets it', async () =>
      (await recall(bob, 'database migrations')).data.memories.every((m) => !m.content.includes('migrations')),
    );
  });

  it('a planted credential never reaches a file, and one written into a file is reported, not indexed', async () => {
    const key = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');
    await storeProject(alice, `Deploys use the staging account with key ${key} from the vault.`);
    await eventually('the deploy memory is written', async () =>
      memoryFiles(alice.clone).some((name) =>
        readFileSync(join(alice.clone, '.memory', name), 'utf8').includes('staging account'),
      ),
    );
    for (const name of memoryFiles(alice.clone))
      assert.ok(!readFileSync(join(alice.clone, '.memory', name), 'utf8').includes(key), `${name} holds no credential`);

    // B's .memory/ went with the last file git removed: it comes back, and the watch with it.
    mkdirSync(join(bob.clone, '.memory'), { recursive: true });
    const planted = join(bob.clone, '.memory', 'planted-00000000.md');
    writeFileSync(
      planted,
      `---\nid: mem_planted00000000\ncategory: procedural\nsubtype: workflow\ntags: []\nanchors: []\ncreated: 2026-11-01T09:00:00.000Z\nupdated: 2026-11-01T09:00:00.000Z\nversion: 1\n---\nLog in to the cloud console with ${key} when the deploy fails.\n`,
    );
    await eventually('the credential is reported', async () =>
      /\.memory\/planted-00000000\.md:11: SECRET_IN_FILE/.test(bob.log()),
    );
    assert.ok(!bob.log().includes(key), 'the report names the kind, never the value');
    const answer = await recall(bob, 'cloud console deploy fails');
    assert.ok(!JSON.stringify(answer).includes(key));
    rmSync(planted);
  });

  it('malformed front matter is a diagnostic with the file and line', async () => {
    writeFileSync(
      join(alice.clone, '.memory', 'broken-00000001.md'),
      '---\nid: mem_broken00000001\ncategory: procedural\nsubtype: workflow\ntags: []\nanchors: []\ncreated: yesterday\nupdated: 2026-11-01T09:00:00.000Z\nversion: 1\n---\nA memory with a bad date.\n',
    );
    await eventually('the malformed file is reported', async () =>
      /\.memory\/broken-00000001\.md:7: INVALID_FIELD/.test(alice.log()),
    );
    assert.ok(
      (await recall(alice, 'memory with a bad date')).data.memories.every((m) => !m.content.includes('bad date')),
    );
  });
});

describe('fml repo-memory flags refused with a clear error', () => {
  const run = (...args: string[]): { status: number | null; stderr: string } => {
    const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 30_000 });
    return { status: result.status, stderr: result.stderr };
  };

  it('--repo-memories without --workspace, export without --agents-md, a bad --file or --budget', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fml-repo-flags-'));
    try {
      const cases: Array<[string[], RegExp]> = [
        [
          ['serve', '--stdio', '--data-dir', dir, '--repo-memories'],
          /INVALID_INPUT: --repo-memories .* add --workspace DIR/,
        ],
        [
          ['export', '--workspace', dir, '--data-dir', dir],
          /INVALID_INPUT: fml export writes one thing so far: pass --agents-md/,
        ],
        [['export', '--agents-md', '--data-dir', dir], /INVALID_INPUT: --agents-md writes into a workspace/],
        [
          ['export', '--agents-md', '--workspace', dir, '--data-dir', dir, '--file', 'README.md'],
          /INVALID_INPUT: --file README\.md/,
        ],
        [
          ['export', '--agents-md', '--workspace', dir, '--data-dir', dir, '--budget', '0'],
          /INVALID_INPUT: --budget must be a whole number/,
        ],
      ];
      for (const [args, message] of cases) {
        const result = run(...args);
        assert.equal(result.status, 1, args.join(' '));
        assert.match(result.stderr, message);
      }
      assert.equal(existsSync(join(dir, 'README.md')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
