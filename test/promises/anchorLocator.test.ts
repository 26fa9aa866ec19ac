import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AnchorChecker } from '../../src/core/anchors/anchorChecker.ts';
import { followRename } from '../../src/core/anchors/anchorUpdates.ts';
import { nodeWorkspaceFiles } from '../../src/runtime/nodeWorkspaceFiles.ts';

/**
 * README "Memories anchored to code", at its edges: one token added, replaced or renamed is a
 * change (the similarity is reported, never a threshold; issue #32), the fingerprint's documented
 * blind spots (comments, whitespace, `;`, `,`, quote style) and what it is not blind to (a string's
 * text, a number), the nearest of several same-named declarations or identical runs, the same kind
 * before another kind, and the bound of 256 tokens in the sketch.
 */

/** `const v = [ids…]` has 5 distinct tokens besides the ids (`const`, `v`, `=`, `[`, `]`; commas do not count). */
const ids = (from: number, count: number): string =>
  Array.from({ length: count }, (_, index) => `id${from + index}`).join(', ');
const list = (count: number, extra = 0): string =>
  `const v = [${ids(0, count)}${extra ? `, ${ids(1000, extra)}` : ''}];`;

describe('anchor locator at its documented edges', () => {
  let root: string;
  let tick = 0;
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    const at = new Date(Date.UTC(2026, 0, 1) + ++tick * 1000);
    utimesSync(join(root, path), at, at);
  };
  const checker = (): AnchorChecker => new AnchorChecker(nodeWorkspaceFiles(root), { refreshMs: 0 });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'fml-anchor-edges-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  // 40 distinct tokens anchored; adding a tokens gives a Jaccard similarity of 40 / (40 + a): reported, but not a threshold.
  for (const [added, similarity] of [
    [1, 0.976],
    [10, 0.8],
  ] as const) {
    it(`a line anchor with ${added} token(s) added to 40 is changed (similarity ${similarity} reported)`, async () => {
      write('src/list.ts', `// list\n${list(35)}\nexport { v };\n`);
      const check = checker();
      const anchor = await check.create({ path: 'src/list.ts', lines: { start: 2, end: 2 } });
      assert.equal(anchor.tokens.length, 40);
      write('src/list.ts', `// list\n${list(35, added)}\nexport { v };\n`);
      const result = await check.check(anchor);
      assert.equal(result.status, 'changed');
      assert.equal(result.similarity, similarity);
    });
  }

  it('a symbol anchor with one token added to 40 is changed, found where it is', async () => {
    const pick = (extra: number): string =>
      `export function pick() {\n  return [${ids(0, 30)}${extra ? `, ${ids(1000, extra)}` : ''}];\n}\n`;
    write('src/pick.ts', `import { x } from './x';\n${pick(0)}`);
    const check = checker();
    const anchor = await check.create({ path: 'src/pick.ts', symbol: 'pick' });
    assert.equal(anchor.tokens.length, 40);
    write('src/pick.ts', `import { x } from './x';\n${pick(1)}`);
    const result = await check.check(anchor);
    assert.equal(result.status, 'changed');
    assert.deepEqual(result.current?.lines, { start: 2, end: 4 });
  });

  it('comments, whitespace, semicolons, commas and quote style do not count; a string or number that changed does', async () => {
    const code = `# settings of the parser\nlimit = parse('max', 1.5)  # keep it small\nname = "parser"\n`;
    write('src/settings.py', `import os\n${code}`);
    const check = checker();
    const anchor = await check.create({ path: 'src/settings.py', lines: { start: 2, end: 4 } });
    for (const same of [
      `# the parser's settings, reworded\nlimit = parse("max", 1.5)\nname = 'parser'\n`,
      `# settings of the parser\nlimit = parse(\`max\`, 1.5); /* block */\nname = "parser",  // trailing\n`,
      `#\tsettings\nlimit   =   parse( 'max' , 1.5 )\nname = "parser"\n`,
    ]) {
      write('src/settings.py', `import os\n${same}`);
      const result = await check.check(anchor);
      assert.equal(result.status, 'fresh', same);
      assert.equal(result.similarity, 1, same);
    }
    for (const other of [
      `# settings of the parser\nlimit = parse('min', 1.5)\nname = "parser"\n`,
      `# settings of the parser\nlimit = parse('max', 1.6)\nname = "parser"\n`,
      `# settings of the parser\nlimit = parse('max', 1.5)\nname = "lexer"\n`,
      `# settings of the parser\nlimit = parse('max', 1.5)\nname = "parser"#2\n`,
    ]) {
      write('src/settings.py', `import os\n${other}`);
      assert.ok(((await check.check(anchor)).similarity ?? 1) < 1, `no change seen in ${JSON.stringify(other)}`);
    }
  });

  it('of two same-named declarations the one nearest the old lines is the anchor’s, and the same kind comes first', async () => {
    const handler = (body: string): string => `function handler(event) {\n  return ${body};\n}\n`;
    const filler = (count: number): string =>
      Array.from({ length: count }, (_, index) => `const f${index} = ${index};`).join('\n');
    write('src/events.js', `${filler(20)}\n${handler('event.kind + 1')}${filler(3)}\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/events.js', symbol: 'handler' });
    assert.deepEqual(anchor.lines, { start: 21, end: 23 });
    // A rewritten copy far above and the unchanged one a little below: the near one is found, fresh.
    write(
      'src/events.js',
      `${handler('completely(different(code, here, and, there))')}${filler(20)}\n${filler(2)}\n${handler('event.kind + 1')}`,
    );
    let result = await check.check(anchor);
    assert.equal(result.status, 'fresh');
    assert.deepEqual(result.current?.lines, { start: 26, end: 28 });
    // The unchanged one far above and a rewritten one near: the near one is found, changed.
    write(
      'src/events.js',
      `${handler('event.kind + 1')}${filler(20)}\n${handler('completely(different(code, here, and, there))')}`,
    );
    result = await check.check(anchor);
    assert.equal(result.status, 'changed');
    assert.deepEqual(result.current?.lines, { start: 24, end: 26 });
    // A variable of the same name nearer than the function: the function (same kind) is still the anchor's.
    write(
      'src/events.js',
      `${filler(5)}\n${handler('event.kind + 1')}${filler(12)}\nconst handler2 = 1;\nvar handler = 2;\n`,
    );
    result = await check.check(anchor);
    assert.equal(result.status, 'fresh');
    assert.deepEqual(result.current?.lines, { start: 6, end: 8 });
  });

  it('a line anchor whose code now appears twice elsewhere in its file is found at the nearer copy', async () => {
    const block = `const total = items.reduce((sum, item) => sum + item.price * item.count, 0);\nreport(total);\n`;
    const filler = (tag: string, count: number): string =>
      Array.from({ length: count }, (_, index) => `log("${tag}${index}");`).join('\n');
    write('src/total.js', `${filler('a', 19)}\n${block}${filler('b', 10)}\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/total.js', lines: { start: 20, end: 21 } });
    // Lines 19-20 now hold other code; copies at 3-4 and at 25-26: 25 is nearer to 20 than 3.
    write(
      'src/total.js',
      `${filler('c', 2)}\n${block}${filler('d', 14)}\nother(code);\nmore(code);\n${filler('e', 4)}\n${block}`,
    );
    let result = await check.check(anchor);
    assert.equal(result.status, 'moved');
    assert.deepEqual(result.current?.lines, { start: 25, end: 26 });
    // Copies at 14-15 and 40-41: 14 is nearer to 20.
    write('src/total.js', `${filler('f', 13)}\n${block}${filler('g', 24)}\n${block}`);
    result = await check.check(anchor);
    assert.equal(result.status, 'moved');
    assert.deepEqual(result.current?.lines, { start: 14, end: 15 });
  });

  it('the token sketch keeps at most 256 distinct tokens, and 255 when there are 255', async () => {
    write('src/big.ts', `${list(251)}\n${list(400)}\n`);
    const check = checker();
    // 251 ids + 5 other tokens = 256 distinct: all kept; 400 ids: 256 kept.
    assert.equal((await check.create({ path: 'src/big.ts', lines: { start: 1, end: 1 } })).tokens.length, 256);
    assert.equal((await check.create({ path: 'src/big.ts', lines: { start: 2, end: 2 } })).tokens.length, 256);
    write('src/small.ts', `${list(250)}\n`);
    assert.equal((await check.create({ path: 'src/small.ts', lines: { start: 1, end: 1 } })).tokens.length, 255);
  });

  it('a line anchor with one of its 40 identifiers renamed is changed (39/41)', async () => {
    const renamed = (count: number): string =>
      `const v = [${ids(0, 35 - count)}${count ? `, ${ids(2000, count)}` : ''}];`;
    write('src/renamed.ts', `// list\n${renamed(0)}\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/renamed.ts', lines: { start: 2, end: 2 } });
    write('src/renamed.ts', `// list\n${renamed(1)}\n`);
    const result = await check.check(anchor);
    assert.equal(result.status, 'changed');
    assert.equal(result.similarity, 0.951);
  });

  it('code reduced to comments and blank lines where it was is not fresh', async () => {
    write('src/cut.py', `import os\nlimit = parse('max', 1.5)\nname = "parser"\nprint(name)\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/cut.py', lines: { start: 2, end: 3 } });
    write('src/cut.py', `import os\n# limit was here\n\nprint(name)\n`);
    const result = await check.check(anchor);
    assert.notEqual(result.status, 'fresh');
    assert.equal(result.similarity, 0);
  });

  it('a comment between two tokens keeps them apart; two tokens run together are a change', async () => {
    write('src/join.ts', `function f(value: number) {\n  return value;\n}\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/join.ts', lines: { start: 2, end: 2 } });
    write('src/join.ts', `function f(value: number) {\n  return/* why */value;\n}\n`);
    assert.equal((await check.check(anchor)).similarity, 1, 'a comment is whitespace');
    write('src/join.ts', `function f(value: number) {\n  returnvalue;\n}\n`);
    assert.ok(((await check.check(anchor)).similarity ?? 1) < 1, '"return value" and "returnvalue" are different code');
  });

  it("an empty string's quote style does not count, and a trailing bare # is a comment", async () => {
    write('src/quotes.py', `import os\nlabel = fmt('') #\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/quotes.py', lines: { start: 2, end: 2 } });
    write('src/quotes.py', `import os\nlabel = fmt("")\n`);
    const result = await check.check(anchor);
    assert.equal(result.status, 'fresh');
    assert.equal(result.similarity, 1);
  });

  it('a declaration whose kind changed is still the anchor’s symbol, found where it is', async () => {
    write(
      'src/shape.ts',
      `import { x } from './x';\nexport class Parser {\n  parse(text: string) { return text.trim(); }\n}\n`,
    );
    const check = checker();
    const anchor = await check.create({ path: 'src/shape.ts', symbol: 'Parser' });
    assert.equal(anchor.symbol?.kind, 'class');
    write(
      'src/shape.ts',
      `import { x } from './x';\n\nexport function Parser(text: string) {\n  return text.trim();\n}\n`,
    );
    const result = await check.check(anchor);
    assert.notEqual(result.status, 'gone');
    assert.equal(result.current?.path, 'src/shape.ts');
    assert.equal(result.current?.lines.start, 3);
  });

  it('of two same-named declarations the nearer wins also when it comes first in the file', async () => {
    const handler = (body: string): string => `function handler(event) {\n  return ${body};\n}\n`;
    const filler = (count: number): string =>
      Array.from({ length: count }, (_, index) => `const g${index} = ${index};`).join('\n');
    write('src/first.js', `${filler(20)}\n${handler('event.kind + 1')}${filler(3)}\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/first.js', symbol: 'handler' });
    assert.deepEqual(anchor.lines, { start: 21, end: 23 });
    // The unchanged copy near (lines 19-21), a rewritten one far below (lines 60-62).
    write(
      'src/first.js',
      `${filler(18)}\n${handler('event.kind + 1')}${filler(38)}\n${handler('completely(different(code, here, and, there))')}`,
    );
    const result = await check.check(anchor);
    assert.equal(result.status, 'fresh');
    assert.deepEqual(result.current?.lines, { start: 19, end: 21 });
  });

  it('follows a rename the editor saw: found at the new path moved, or changed when rewritten there', async () => {
    write(
      'src/old.ts',
      `import { x } from './x';\nexport function load(path: string) {\n  return read(path).trim();\n}\n`,
    );
    const check = checker();
    const symbolAnchor = await check.create({ path: 'src/old.ts', symbol: 'load' });
    const lineAnchor = await check.create({ path: 'src/old.ts', lines: { start: 3, end: 3 } });
    rmSync(join(root, 'src/old.ts'));
    write(
      'src/new.ts',
      `import { x } from './x';\n\nexport function load(path: string) {\n  return read(path).trim();\n}\n`,
    );
    check.invalidate('src/old.ts');
    for (const anchor of [symbolAnchor, lineAnchor]) {
      const followed = followRename([anchor], 'src/old.ts', 'src/new.ts').anchors[0]!;
      assert.equal(followed.current?.path, 'src/new.ts');
      const result = await check.check(followed);
      assert.equal(result.status, 'moved', JSON.stringify(result));
      assert.equal(result.current?.path, 'src/new.ts');
    }
    const followedSymbol = followRename([symbolAnchor], 'src/old.ts', 'src/new.ts').anchors[0]!;
    assert.deepEqual((await check.check(followedSymbol)).current?.lines, { start: 3, end: 5 });
    write(
      'src/new.ts',
      `import { x } from './x';\n\nexport function load(path: string) {\n  const handle = open(path, { mode: 'r', encoding: 'utf8', retries: 3 });\n  return decode(handle.readAll(), fallbackCharset).split(separator).join(' ');\n}\n`,
    );
    const rewritten = await check.check(followedSymbol);
    assert.equal(rewritten.status, 'changed');
    assert.equal(rewritten.current?.path, 'src/new.ts');
  });

  it('a check that searched the workspace is redone once the workspace changed (invalidate), not served from the cache', async () => {
    const block = `const total = items.reduce((sum, item) => sum + item.price * item.count, 0);\nreport(total);\n`;
    write('src/a.js', `log("a");\n${block}`);
    const check = checker();
    const anchor = await check.create({ path: 'src/a.js', lines: { start: 2, end: 3 } });
    write('src/a.js', `log("a");\nother(code);\nmore(code);\n`);
    write('src/b.js', `log("b");\n${block}`);
    check.invalidate('src/b.js');
    let result = await check.check(anchor);
    assert.equal(result.status, 'moved');
    assert.equal(result.current?.path, 'src/b.js');
    // The code moves on to c.js; a.js (the anchor's own file) is untouched, so only the
    // workspace's change (the editor's invalidate) says the earlier search is stale.
    rmSync(join(root, 'src/b.js'));
    write('src/c.js', `log("c");\nlog("c2");\n${block}`);
    check.invalidate('src/b.js');
    result = await check.check(anchor);
    assert.equal(result.status, 'moved');
    assert.equal(result.current?.path, 'src/c.js');
    assert.deepEqual(result.current?.lines, { start: 3, end: 4 });
    // Without a change, the answer is the cached one and stays the same.
    assert.deepEqual(await check.check(anchor), result);
  });

  it('a line anchor rewritten in a file the editor saw renamed is changed there, not gone', async () => {
    write(
      'src/old.ts',
      `log("start");\nconst total = items.reduce((sum, item) => sum + item.price, 0);\nlog("end");\n`,
    );
    const check = checker();
    const anchor = await check.create({ path: 'src/old.ts', lines: { start: 2, end: 2 } });
    rmSync(join(root, 'src/old.ts'));
    // Rewritten beyond recognition: no search of the workspace finds it; only the rename says where it went.
    write('src/new.ts', `log("start");\nconst average = await fetchPrices(region).then(mean);\nlog("end");\n`);
    check.invalidate('src/old.ts');
    const unfollowed = await check.check(anchor);
    assert.equal(unfollowed.status, 'gone', JSON.stringify(unfollowed));
    const followed = followRename([anchor], 'src/old.ts', 'src/new.ts').anchors[0]!;
    const result = await check.check(followed);
    assert.equal(result.status, 'changed', JSON.stringify(result));
    assert.equal(result.current?.path, 'src/new.ts');
    assert.deepEqual(result.current?.lines, { start: 2, end: 2 });
  });

  it('a line anchor unchanged where it was stays fresh there, though a copy of its code is in another file', async () => {
    const block = `const total = items.reduce((sum, item) => sum + item.price * item.count, 0);\n`;
    write('src/a.js', `log("a");\n${block}`);
    write('src/b.js', `log("b");\nlog("b2");\n${block}`);
    const check = checker();
    const anchor = await check.create({ path: 'src/a.js', lines: { start: 2, end: 2 } });
    check.invalidate('src/b.js');
    const result = await check.check(anchor);
    assert.equal(result.status, 'fresh', JSON.stringify(result));
    assert.equal(result.current?.path, 'src/a.js');
  });

  it('a changed or gone answer that searched the workspace is redone when the code appears elsewhere (invalidate)', async () => {
    const block = `const total = items.reduce((sum, item) => sum + item.price * item.count, 0);\nreport(total);\n`;
    write('src/a.js', `log("a");\n${block}`);
    write('src/g.js', `log("g");\n${block}`);
    const check = checker();
    const kept = await check.create({ path: 'src/a.js', lines: { start: 2, end: 3 } });
    const lost = await check.create({ path: 'src/g.js', lines: { start: 2, end: 3 } });
    write('src/a.js', `log("a");\nother(code);\nmore(code);\n`);
    rmSync(join(root, 'src/g.js'));
    check.invalidate('src/g.js');
    assert.equal((await check.check(kept)).status, 'changed');
    assert.equal((await check.check(lost)).status, 'gone');
    // Neither anchor's own file changes from here on: only the workspace's change can make them found.
    write('src/c.js', `log("c");\n${block}`);
    check.invalidate('src/c.js');
    for (const anchor of [kept, lost]) {
      const result = await check.check(anchor);
      assert.equal(result.status, 'moved', JSON.stringify(result));
      assert.equal(result.current?.path, 'src/c.js');
    }
  });

  it('code reformatted onto more lines where it began is fresh, and moved when it begins on another line', async () => {
    write('src/r.ts', `log("r");\nconst total = items.reduce((sum, item) => sum + item.price, 0);\nlog("end");\n`);
    const check = checker();
    const anchor = await check.create({ path: 'src/r.ts', lines: { start: 2, end: 2 } });
    write(
      'src/r.ts',
      `log("r");\nconst total = items.reduce(\n  (sum, item) => sum + item.price,\n  0,\n);\nlog("end");\n`,
    );
    const here = await check.check(anchor);
    assert.equal(here.status, 'fresh', JSON.stringify(here));
    assert.equal(here.current?.lines.start, 2);
    write(
      'src/r.ts',
      `log("r");\nlog("inserted");\nconst total = items.reduce(\n  (sum, item) => sum + item.price,\n  0,\n);\nlog("end");\n`,
    );
    const below = await check.check(anchor);
    assert.equal(below.status, 'moved', JSON.stringify(below));
    assert.equal(below.current?.lines.start, 3);
  });
});
