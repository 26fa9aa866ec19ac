import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AnchorChecker } from '../../../src/core/anchors/anchorChecker.ts';
import {
  followRename,
  keepForCurrentCode,
  recheckAnchors,
  STALE_TAG,
  tagsForAnchors,
} from '../../../src/core/anchors/anchorUpdates.ts';
import { nodeWorkspaceFiles } from '../../../src/runtime/nodeWorkspaceFiles.ts';

const SOURCE =
  'package store\n\nfunc Open(path string) (*DB, error) {\n\treturn open(path, defaultOptions)\n}\n\ntype DB struct {\n\tpath string\n}\n';
const AT = '2026-11-25T14:00:00.000Z';

/** What the editor does with anchors between checks: follow renames, store statuses, tag stale memories, keep. */
describe('anchor updates the editor stores', () => {
  let root: string;
  let tick = 0;
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    const at = new Date(Date.UTC(2026, 0, 1) + ++tick * 1000);
    utimesSync(join(root, path), at, at);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'fml-anchor-updates-'));
    write('store/db.go', SOURCE);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('follows a rename: the next check looks at the new path first, without searching the workspace', async () => {
    const checker = new AnchorChecker(nodeWorkspaceFiles(root), { refreshMs: 60_000 });
    const anchor = await checker.create({ path: 'store/db.go', symbol: 'Open' });
    renameSync(join(root, 'store'), join(root, 'storage'));
    const followed = followRename([anchor], 'store', 'storage');
    assert.equal(followed.changed, true);
    assert.equal(followed.anchors[0].current?.path, 'storage/db.go');
    const { anchors, changed } = await recheckAnchors(followed.anchors, checker, AT);
    assert.equal(changed, true);
    assert.equal(anchors[0].status, 'moved');
    assert.deepEqual(anchors[0].current, { path: 'storage/db.go', lines: { start: 3, end: 5 } });
    assert.equal(anchors[0].path, 'store/db.go', 'the stored path is kept');
    assert.equal(followRename(anchors, 'other', 'elsewhere').changed, false);
  });

  it('tags a memory stale exactly while one of its anchors is changed or gone', async () => {
    const checker = new AnchorChecker(nodeWorkspaceFiles(root), { refreshMs: 0 });
    const anchor = await checker.create({ path: 'store/db.go', symbol: 'Open' });
    write(
      'store/db.go',
      SOURCE.replace(
        'return open(path, defaultOptions)',
        'if path == "" {\n\t\treturn nil, errEmptyPath\n\t}\n\tconn, err := dial(ctx, path, retries)\n\treturn wrap(conn), err',
      ),
    );
    const { anchors } = await recheckAnchors([anchor], checker, AT);
    assert.equal(anchors[0].status, 'changed');
    assert.equal(anchors[0].checked_at, AT);
    assert.deepEqual(tagsForAnchors(['db'], anchors), ['db', STALE_TAG]);

    const kept = await keepForCurrentCode(anchors, (path, start, end) => checker.codeAt(path, start, end), AT);
    assert.equal(kept[0].status, 'fresh');
    assert.deepEqual(kept[0].lines, { start: 3, end: 9 });
    assert.equal((await checker.check(kept[0])).status, 'fresh', 'kept anchors are fresh against the code as it is');
    assert.deepEqual(tagsForAnchors(['db', STALE_TAG], kept), ['db']);
  });

  it('keep drops gone anchors and leaves fresh ones as they were', async () => {
    const checker = new AnchorChecker(nodeWorkspaceFiles(root), { refreshMs: 0 });
    const open = await checker.create({ path: 'store/db.go', symbol: 'Open' });
    const db = await checker.create({ path: 'store/db.go', symbol: 'DB' });
    write('store/db.go', SOURCE.replace(/type DB struct[\s\S]*$/, ''));
    const { anchors } = await recheckAnchors([open, db], checker, AT);
    assert.deepEqual(
      anchors.map((anchor) => anchor.status),
      ['fresh', 'gone'],
    );
    const kept = await keepForCurrentCode(anchors, (path, start, end) => checker.codeAt(path, start, end), AT);
    assert.deepEqual(
      kept.map((anchor) => anchor.symbol?.name),
      ['Open'],
    );
  });
});
