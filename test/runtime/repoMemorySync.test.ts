import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AnchorChecker } from '../../src/core/anchors/anchorChecker.ts';
import { anchorsOf } from '../../src/core/anchors/anchorModel.ts';
import { repositoryOriginOf } from '../../src/core/domain/repositoryOrigin.ts';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';
import { RepoMemorySync } from '../../src/core/repomemory/repoMemorySync.ts';
import { nodeRepoMemoryFiles } from '../../src/runtime/nodeRepoMemoryFiles.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';
import { recordingLogger } from '../support/recordingLogger.ts';

const PROJECT = 'acme';
const PARTITION = `project:${PROJECT}`;
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Developer {
  test: TestCore;
  dir: string;
  sync: RepoMemorySync;
}

async function developer(dir = mkdtempSync(join(tmpdir(), 'fml-repo-'))): Promise<Developer> {
  const test = await createTestCore();
  const files = nodeRepoMemoryFiles(dir, { logger: recordingLogger() });
  const sync = new RepoMemorySync(test.deps, files, { projectId: PROJECT, pollMs: 0 });
  cleanups.push(async () => {
    await sync.close();
    await test.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
  return { test, dir, sync };
}

function memoryFiles(dir: string): string[] {
  const folder = join(dir, '.memory');
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.md')) : [];
}

function readOnly(dir: string): string {
  const [name] = memoryFiles(dir);
  assert.ok(name, 'a memory file exists');
  return readFileSync(join(dir, '.memory', name), 'utf8');
}

/** What `git pull` does to B's folder, without git: A's files replace B's. */
function copyFolder(from: string, to: string): void {
  rmSync(join(to, '.memory'), { recursive: true, force: true });
  if (existsSync(join(from, '.memory'))) cpSync(join(from, '.memory'), join(to, '.memory'), { recursive: true });
}

async function storeProject(dev: Developer, content: string): Promise<string> {
  const stored = await dev.test.core.storeMemory({
    user_id: 'alice',
    content,
    memory_category: 'procedural',
    memory_subtype: 'workflow',
    layer: 'project',
    project_id: PROJECT,
  });
  return stored.memory_id;
}

describe('the project-memory sync between the store and .memory/', () => {
  it('writes a project memory as its file, and another store imports it under the same id', async () => {
    const a = await developer();
    const id = await storeProject(a, 'Run the migrations with npm run migrate before starting the server.');
    const report = await a.sync.sync();
    assert.deepEqual(
      report.resolutions.map((resolution) => [resolution.kind, resolution.reason]),
      [['write-file', 'new-in-store']],
    );
    const text = readOnly(a.dir);
    assert.match(text, new RegExp(`^---\\nid: ${id}\\ncategory: procedural\\nsubtype: workflow\\n`));
    assert.match(text, /\nRun the migrations with npm run migrate before starting the server\.\n$/);
    const [memory] = await a.test.store.getMemories(PARTITION, [id]);
    assert.equal(repositoryOriginOf(memory.metadata)?.path, `.memory/${memoryFiles(a.dir)[0]}`);
    // A second pass finds both sides in step.
    assert.deepEqual((await a.sync.sync()).resolutions, []);

    const b = await developer();
    copyFolder(a.dir, b.dir);
    const imported = await b.sync.sync();
    assert.deepEqual(
      imported.resolutions.map((resolution) => [resolution.kind, resolution.memory_id]),
      [['import', id]],
    );
    const recalled = await b.test.core.recall({
      user_id: 'bob',
      query: 'how do I run the migrations',
      project_id: PROJECT,
    });
    assert.equal(recalled.memories[0]?.memory_id, id);
    assert.equal(recalled.memories[0]?.layer, 'project');
  });

  it('follows a file edit into the store and a store edit into the file, and deletions both ways', async () => {
    const a = await developer();
    const id = await storeProject(a, 'Use pnpm, not npm, in this repository.');
    await a.sync.sync();
    const [name] = memoryFiles(a.dir);
    const path = join(a.dir, '.memory', name);

    writeFileSync(path, readFileSync(path, 'utf8').replace('Use pnpm, not npm', 'Use bun, not npm'));
    const edited = await a.sync.sync();
    assert.deepEqual(
      edited.resolutions.map((r) => r.reason),
      ['changed-in-repository'],
    );
    assert.equal((await a.test.store.getMemories(PARTITION, [id]))[0].content, 'Use bun, not npm, in this repository.');

    await a.test.core.updateMemory({
      user_id: 'alice',
      layer: 'project',
      project_id: PROJECT,
      memory_id: id,
      content: 'Use bun, never npm or yarn, in this repository.',
    });
    const rewritten = await a.sync.sync();
    assert.deepEqual(
      rewritten.resolutions.map((r) => r.reason),
      ['changed-in-store'],
    );
    assert.match(readFileSync(path, 'utf8'), /\nversion: 2\n[\s\S]*Use bun, never npm or yarn/);

    rmSync(path);
    const deleted = await a.sync.sync();
    assert.deepEqual(
      deleted.resolutions.map((r) => r.reason),
      ['deleted-in-repository'],
    );
    const [forgotten] = await a.test.store.getMemories(PARTITION, [id]);
    assert.notEqual(forgotten.deleted_at, null);

    const other = await storeProject(a, 'The CI runs on Node 24.');
    await a.sync.sync();
    assert.equal(memoryFiles(a.dir).length, 1);
    await a.test.core.forgetMemory({ user_id: 'alice', layer: 'project', project_id: PROJECT, memory_id: other });
    const gone = await a.sync.sync();
    assert.deepEqual(
      gone.resolutions.map((r) => r.reason),
      ['deleted-in-store'],
    );
    assert.equal(memoryFiles(a.dir).length, 0);
  });

  it('removes the file of a memory erased (forget with hard) while shared; a file edited meanwhile stays, not imported', async () => {
    const a = await developer();
    const id = await storeProject(a, 'The staging database is reset every Sunday night.');
    await a.sync.sync();
    assert.equal(memoryFiles(a.dir).length, 1);
    await a.test.core.forgetMemory({
      user_id: 'alice',
      layer: 'project',
      project_id: PROJECT,
      memory_id: id,
      hard_delete: true,
    });
    const erased = await a.sync.sync();
    assert.deepEqual(
      erased.resolutions.map((r) => [r.kind, r.memory_id, r.reason]),
      [['delete-file', id, 'erased-in-store']],
    );
    assert.deepEqual(memoryFiles(a.dir), []);
    assert.deepEqual((await a.sync.sync()).resolutions, [], 'nothing comes back');

    // Erased while a teammate edited the file: the edit is not thrown away, and the memory does not come back.
    const kept = await storeProject(a, 'Feature flags live in config/flags.yaml.');
    await a.sync.sync();
    const [name] = memoryFiles(a.dir);
    const path = join(a.dir, '.memory', name);
    await a.test.core.forgetMemory({
      user_id: 'alice',
      layer: 'project',
      project_id: PROJECT,
      memory_id: kept,
      hard_delete: true,
    });
    writeFileSync(path, readFileSync(path, 'utf8').replace('config/flags.yaml', 'config/flags.toml'));
    const refused = await a.sync.sync();
    assert.deepEqual(refused.resolutions, []);
    assert.deepEqual(
      refused.diagnostics.map((d) => [d.path, d.code]),
      [[`.memory/${name}`, 'NOT_IMPORTED']],
    );
    assert.ok(existsSync(path));
    assert.deepEqual(await a.test.store.getMemories(PARTITION, [kept]), []);
  });

  it('carries a project fact through its file: another store imports it as a fact, and an edit of the value follows', async () => {
    const a = await developer();
    await a.test.core.setFact({
      user_id: 'alice',
      layer: 'project',
      project_id: PROJECT,
      category: 'constraint',
      key: 'node_version',
      value: 'Node 24',
    });
    await a.sync.sync();
    assert.match(readOnly(a.dir), /\nfact: \["constraint","node_version","Node 24"\]\n/);

    const b = await developer();
    copyFolder(a.dir, b.dir);
    await b.sync.sync();
    const facts = async () =>
      (
        await b.test.core.getFacts({ user_id: 'bob', project_id: PROJECT, category: 'constraint', key: 'node_version' })
      ).facts.map((fact) => [fact.layer, fact.category, fact.key, fact.value]);
    assert.deepEqual(await facts(), [['project', 'constraint', 'node_version', 'Node 24']]);

    // The value edited in B's file (a reviewed change): B's fact follows, and A's after a pull.
    const [name] = memoryFiles(b.dir);
    const path = join(b.dir, '.memory', name);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('Node 24', 'Node 26'));
    await b.sync.sync();
    assert.deepEqual(await facts(), [['project', 'constraint', 'node_version', 'Node 26']]);
    copyFolder(b.dir, a.dir);
    await a.sync.sync();
    const onA = await a.test.core.getFacts({
      user_id: 'alice',
      project_id: PROJECT,
      category: 'constraint',
      key: 'node_version',
    });
    assert.deepEqual(
      onA.facts.map((fact) => fact.value),
      ['Node 26'],
    );
  });

  it('keeps an anchor that does not resolve here as written: a store change writes the file back with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fml-repo-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'src', 'billing.ts'),
      'export function charge(total: number): number {\n  return total;\n}\n',
    );
    mkdirSync(join(dir, '.memory'));
    const name = 'charge-posts-to-the-ledger-5a1a2b3c4d.md';
    writeFileSync(
      join(dir, '.memory', name),
      [
        '---',
        'id: mem_0f9e8d7c6b5a1a2b3c4d',
        'category: semantic',
        'subtype: project',
        'tags: []',
        'anchors: ["src/billing.ts#charge","src/ledger.ts#post"]',
        'created: 2026-11-01T09:00:00.000Z',
        'updated: 2026-11-01T09:00:00.000Z',
        'version: 1',
        '---',
        'charge posts every payment to the ledger.',
        '',
      ].join('\n'),
    );
    const test = await createTestCore();
    const sync = new RepoMemorySync(test.deps, nodeRepoMemoryFiles(dir, { logger: recordingLogger() }), {
      projectId: PROJECT,
      pollMs: 0,
      anchors: new AnchorChecker(nodeWorkspaceFiles(dir)),
    });
    cleanups.push(async () => {
      await sync.close();
      await test.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });
    await sync.sync();
    const [memory] = await test.store.getMemories(PARTITION, ['mem_0f9e8d7c6b5a1a2b3c4d']);
    assert.deepEqual(
      anchorsOf(memory.metadata).map((anchor) => [anchor.path, anchor.symbol?.name]),
      [['src/billing.ts', 'charge']],
      'the anchor that resolves here is resolved',
    );
    await test.core.updateMemory({
      user_id: 'alice',
      layer: 'project',
      project_id: PROJECT,
      memory_id: 'mem_0f9e8d7c6b5a1a2b3c4d',
      pinned: true,
    });
    const written = await sync.sync();
    assert.deepEqual(
      written.resolutions.map((r) => r.reason),
      ['changed-in-store'],
    );
    const text = readFileSync(join(dir, '.memory', name), 'utf8');
    assert.match(text, /\npinned: true\n/);
    assert.match(text, /\nanchors: \["src\/billing\.ts#charge","src\/ledger\.ts#post"\]\n/);
  });

  it('writes only the project layer: user, agent and session memories never leave the store', async () => {
    const a = await developer();
    await a.test.core.storeMemory({
      user_id: 'alice',
      content: 'I like tabs over spaces in my own scratch files.',
      memory_category: 'preference',
      memory_subtype: 'style',
    });
    await a.test.core.storeMemory({
      user_id: 'alice',
      content: 'The agent should answer in short sentences.',
      memory_category: 'preference',
      memory_subtype: 'communication',
      layer: 'agent',
      agent_id: 'copilot',
    });
    await a.test.core.storeMemory({
      user_id: 'alice',
      content: 'Another project keeps its release notes in CHANGES.md.',
      memory_category: 'semantic',
      memory_subtype: 'project',
      layer: 'project',
      project_id: 'other-project',
    });
    const report = await a.sync.sync();
    assert.deepEqual(report.resolutions, []);
    assert.deepEqual(memoryFiles(a.dir), []);
  });

  it('reports a file holding a credential and never indexes it; a malformed file keeps its memory', async () => {
    const a = await developer();
    const id = await storeProject(a, 'Deploys go through the staging cluster first.');
    await a.sync.sync();
    const [name] = memoryFiles(a.dir);
    const path = join(a.dir, '.memory', name);
    const good = readFileSync(path, 'utf8');

    writeFileSync(path, good.replace('version: 1', 'version: one'));
    const malformed = await a.sync.sync();
    assert.deepEqual(malformed.resolutions, []);
    assert.deepEqual(
      malformed.diagnostics.map((d) => [d.path, d.line, d.code]),
      [[`.memory/${name}`, 9, 'INVALID_FIELD']],
    );
    const [kept] = await a.test.store.getMemories(PARTITION, [id]);
    assert.equal(kept.deleted_at, null, 'a malformed file is not a deletion');

    const key = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');
    writeFileSync(
      join(a.dir, '.memory', 'planted-00000000.md'),
      good.replace(id, 'mem_planted0000').replace('Deploys go through', `Deploy with key ${key} through`),
    );
    const planted = await a.sync.sync();
    const secret = planted.diagnostics.find((d) => d.code === 'SECRET_IN_FILE');
    assert.equal(secret?.path, '.memory/planted-00000000.md');
    assert.equal(secret?.line, 12);
    assert.ok(!JSON.stringify(planted).includes(key), 'the report never repeats the credential');
    assert.deepEqual(await a.test.store.getMemories(PARTITION, ['mem_planted0000']), []);
    const recalled = await a.test.core.recall({ user_id: 'alice', query: 'deploy key staging', project_id: PROJECT });
    assert.ok(!JSON.stringify(recalled).includes(key));
  });

  it('does not read a memory file that links outside the workspace', async () => {
    const a = await developer();
    const outside = mkdtempSync(join(tmpdir(), 'fml-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    const b = await developer();
    await storeProject(b, 'A memory written elsewhere, reachable only through a link.');
    await b.sync.sync();
    cpSync(join(b.dir, '.memory', memoryFiles(b.dir)[0]), join(outside, 'secret.md'));
    mkdirSync(join(a.dir, '.memory'));
    symlinkSync(join(outside, 'secret.md'), join(a.dir, '.memory', 'linked-00000000.md'));
    const report = await a.sync.sync();
    assert.deepEqual(report.resolutions, []);
    assert.deepEqual(
      report.diagnostics.map((d) => [d.path, d.code]),
      [['.memory/linked-00000000.md', 'UNREADABLE_FILE']],
    );

    // The folder itself linked out is refused the same way.
    const c = await developer();
    symlinkSync(join(b.dir, '.memory'), join(c.dir, '.memory'));
    const linkedFolder = await c.sync.sync();
    assert.deepEqual(
      linkedFolder.diagnostics.map((d) => [d.path, d.code]),
      [['.memory', 'UNREADABLE_FILE']],
    );
    assert.deepEqual(linkedFolder.resolutions, []);
  });

  it('delete against edit: the newer side wins, and the report names the reason', async () => {
    const a = await developer();
    const id = await storeProject(a, 'Releases are cut from the release branch on Thursdays.');
    await a.sync.sync();
    const [name] = memoryFiles(a.dir);
    const path = join(a.dir, '.memory', name);
    const written = readFileSync(path, 'utf8');

    // Deleted in the repository, edited in the store afterwards: the memory stays and its file comes back.
    rmSync(path);
    await a.test.core.updateMemory({
      user_id: 'alice',
      layer: 'project',
      project_id: PROJECT,
      memory_id: id,
      content: 'Releases are cut from the release branch on Wednesdays.',
    });
    const kept = await a.sync.sync();
    assert.deepEqual(
      kept.resolutions.map((r) => r.reason),
      ['edited-in-store-after-file-deletion'],
    );
    assert.match(readFileSync(path, 'utf8'), /on Wednesdays\.\n$/);

    // Forgotten in the store, then the file edited with a later time: the edit restores the memory.
    await a.test.core.forgetMemory({ user_id: 'alice', layer: 'project', project_id: PROJECT, memory_id: id });
    const later = new Date(Date.now() + 60_000).toISOString();
    writeFileSync(
      path,
      readFileSync(path, 'utf8')
        .replace(/^updated: .*$/m, `updated: ${later}`)
        .replace('on Wednesdays', 'on Tuesdays'),
    );
    const restored = await a.sync.sync();
    assert.deepEqual(
      restored.resolutions.map((r) => r.reason),
      ['edited-in-repository-after-store-deletion'],
    );
    const [memory] = await a.test.store.getMemories(PARTITION, [id]);
    assert.equal(memory.deleted_at, null);
    assert.equal(memory.content, 'Releases are cut from the release branch on Tuesdays.');
    assert.equal(repositoryOriginOf(memory.metadata)?.last_sync, 'edited-in-repository-after-store-deletion');
    assert.notEqual(written, readFileSync(path, 'utf8'));
  });

  it('keeps the AGENTS.md section in step with the pinned project memories, and nothing outside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fml-repo-'));
    writeFileSync(join(dir, 'AGENTS.md'), '# Rules\n\nKeep this line.\n');
    const test = await createTestCore();
    const files = nodeRepoMemoryFiles(dir, { logger: recordingLogger() });
    const sync = new RepoMemorySync(test.deps, files, {
      projectId: PROJECT,
      pollMs: 0,
      agentsFile: { path: 'AGENTS.md', budget: 500 },
    });
    cleanups.push(async () => {
      await sync.close();
      await test.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });
    const dev = { test, dir, sync };
    const id = await storeProject(dev, 'Never commit generated files under dist/.');
    await sync.sync();
    assert.equal(readFileSync(join(dir, 'AGENTS.md'), 'utf8').includes('Never commit generated files'), false);
    await test.store.changeMemory({
      user_id: PARTITION,
      memory_id: id,
      change: { set: { pinned: true } },
      at: new Date().toISOString(),
      if_forgotten: 'reject',
    });
    const report = await sync.sync();
    assert.equal(report.agents_file?.included, 1);
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    assert.ok(agents.startsWith('# Rules\n\nKeep this line.\n\n<!-- fml:begin -->'));
    assert.match(
      agents,
      /- Never commit generated files under dist\/\. \(\.memory\/never-commit-generated-files-under-dist-[a-z0-9]{8}\.md\)/,
    );
    // Pinned in the file too: the change went both ways.
    assert.match(readOnly(dir), /\npinned: true\n/);
  });

  it('writes the file of a memory promoted to the project layer while it watches, with no pass asked for', async () => {
    const a = await developer();
    await a.sync.start();
    const own = await a.test.core.storeMemory({
      user_id: 'alice',
      content: 'Release notes are drafted in docs/releases before tagging.',
      memory_category: 'procedural',
      memory_subtype: 'workflow',
      project_id: PROJECT,
    });
    assert.deepEqual(memoryFiles(a.dir), [], 'a user memory is not shared');
    const written = new Promise((resolve) =>
      a.sync.onReport((report) => {
        if (report.resolutions.some((r) => r.kind === 'write-file')) resolve(report);
      }),
    );
    const promoted = await a.test.core.promoteMemory({
      user_id: 'alice',
      memory_id: own.memory_id,
      to_layer: 'project',
      project_id: PROJECT,
    });
    await Promise.race([
      written,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no file within 5 s')), 5000)),
    ]);
    const text = readOnly(a.dir);
    assert.match(text, new RegExp(`^---\\nid: ${promoted.memory_id}\\n`));
    assert.match(text, /\nRelease notes are drafted in docs\/releases before tagging\.\n$/);
  });

  it('picks up a file that appears while it watches', async () => {
    const a = await developer();
    const b = await developer();
    await storeProject(a, 'Feature flags live in config/flags.json.');
    await a.sync.sync();
    await b.sync.start();
    const imported = new Promise((resolve) =>
      b.sync.onReport((report) => {
        if (report.resolutions.some((r) => r.kind === 'import')) resolve(report);
      }),
    );
    copyFolder(a.dir, b.dir);
    await Promise.race([
      imported,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no import within 5 s')), 5000)),
    ]);
    const listed = await b.test.store.listMemories({
      filter: { user_id: PARTITION },
      sort: 'created',
      offset: 0,
      limit: 10,
    });
    assert.deepEqual(
      listed.items.map((m) => m.content),
      ['Feature flags live in config/flags.json.'],
    );
  });
});
