import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AnchorChecker } from '../../../src/core/anchors/anchorChecker.ts';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { nodeWorkspaceFiles } from '../../../src/runtime/nodeWorkspaceFiles.ts';

const PARSER = `import { readFileSync } from 'node:fs';

export function parseConfig(path: string): Record<string, string> {
  const text = readFileSync(path, 'utf8');
  const entries: Record<string, string> = {};
  for (const line of text.split('\\n')) {
    const [key, value] = line.split('=');
    if (key && value) entries[key.trim()] = value.trim();
  }
  return entries;
}

export function unrelated(): number {
  return 42;
}
`;

/** Every status of issue #18 on a real temporary workspace, checked through the Node file-system port. */
describe('anchor freshness on a temporary workspace', () => {
  let root: string;
  let tick = 0;
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    // A distinct mtime per write: the cache is keyed on it, and two writes can land in one clock tick.
    const at = new Date(Date.UTC(2026, 0, 1) + ++tick * 1000);
    utimesSync(join(root, path), at, at);
  };
  const checker = (): AnchorChecker => new AnchorChecker(nodeWorkspaceFiles(root), { refreshMs: 0 });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'fml-anchors-'));
    write('src/config/parser.ts', PARSER);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('anchors a symbol to its declaration lines and finds it fresh', async () => {
    const check = checker();
    const anchor = await check.create({ path: 'src/config/parser.ts', symbol: 'parseConfig' });
    assert.deepEqual(anchor.symbol, { name: 'parseConfig', kind: 'function' });
    assert.deepEqual(anchor.lines, { start: 3, end: 11 });
    assert.equal((await check.check(anchor)).status, 'fresh');
  });

  it('a reformat only (indentation, line breaks, quotes, semicolons) keeps it fresh', async () => {
    const check = checker();
    const anchor = await check.create({ path: 'src/config/parser.ts', symbol: 'parseConfig' });
    const reformatted = PARSER.replace(
      /export function parseConfig[\s\S]*?\n}\n/,
      `export function parseConfig(
    path: string,
): Record<string, string> {
    const text = readFileSync(path, "utf8")
    const entries: Record<string, string> = {}
    for (const line of text.split("\\n")) {
        const [key, value] = line.split("=")
        if (key && value) entries[key.trim()] = value.trim()
    }
    return entries
}
`,
    );
    write('src/config/parser.ts', reformatted);
    const result = await check.check(anchor);
    assert.equal(result.status, 'fresh');
    assert.equal(result.similarity, 1);
    assert.deepEqual(result.current, { path: 'src/config/parser.ts', lines: { start: 3, end: 13 } });
  });

  it('a comment is not a change; a rewrite is', async () => {
    const check = checker();
    const anchor = await check.create({ path: 'src/config/parser.ts', symbol: 'parseConfig' });
    write('src/config/parser.ts', PARSER.replace('return entries;', 'return entries; // parsed'));
    assert.equal((await check.check(anchor)).status, 'fresh', 'a comment is not a change');
    write(
      'src/config/parser.ts',
      PARSER.replace(
        /export function parseConfig[\s\S]*?\n}\n/,
        'export function parseConfig(source: URL): Map<string, number> {\n  return new Map(JSON.parse(fetchSync(source)));\n}\n',
      ),
    );
    const result = await check.check(anchor);
    assert.equal(result.status, 'changed');
    assert.ok((result.similarity ?? 1) < 0.8, `similarity ${result.similarity}`);
  });

  it('a one-call change under a memory about it (Math.round → Math.floor in computeTotal) is changed, a reformat of it fresh', async () => {
    const invoice = (body: string): string =>
      `import { Line } from './line';\n\nexport function computeTotal(lines: Line[]): number {\n${body}\n}\n`;
    const rounding = `  const net = lines.reduce((sum, line) => sum + line.price * line.quantity, 0);\n  return Math.round(net * 1.2 * 100) / 100;`;
    write('src/invoice.ts', invoice(rounding));
    const check = checker();
    const anchor = await check.create({ path: 'src/invoice.ts', symbol: 'computeTotal' });
    write('src/invoice.ts', invoice(rounding.replace('Math.round', 'Math.floor')));
    const floored = await check.check(anchor);
    assert.equal(floored.status, 'changed');
    assert.ok((floored.similarity ?? 0) >= 0.8, `one token of many: similarity ${floored.similarity}`);
    write(
      'src/invoice.ts',
      invoice(
        `    const net = lines.reduce(\n      (sum, line) => sum + line.price * line.quantity,\n      0,\n    )\n    return Math.round(net * 1.2 * 100) / 100 // VAT`,
      ),
    );
    assert.equal((await check.check(anchor)).status, 'fresh');
  });

  it('a renamed file is followed: moved, with where the code is now', async () => {
    const check = checker();
    const anchor = await check.create({ path: 'src/config/parser.ts', symbol: 'parseConfig' });
    renameSync(join(root, 'src/config/parser.ts'), join(root, 'src/config/configParser.ts'));
    const result = await check.check(anchor);
    assert.equal(result.status, 'moved');
    assert.equal(result.current?.path, 'src/config/configParser.ts');
  });

  it('a line anchor whose code moved further down the file is moved, with its new lines', async () => {
    const check = checker();
    const anchor = await check.create({ path: 'src/config/parser.ts', lines: { start: 13, end: 15 } });
    write(
      'src/config/parser.ts',
      PARSER.replace(
        "import { readFileSync } from 'node:fs';\n",
        "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\n\nconst ROOT = join('a', 'b');\n",
      ),
    );
    const result = await check.check(anchor);
    assert.equal(result.status, 'moved');
    assert.deepEqual(result.current, { path: 'src/config/parser.ts', lines: { start: 16, end: 18 } });
  });

  it('a line anchor moved to another file is found there by its code', async () => {
    const check = checker();
    const anchor = await check.create({ path: 'src/config/parser.ts', lines: { start: 3, end: 11 } });
    write('src/config/parser.ts', 'export function unrelated(): number {\n  return 42;\n}\n');
    write(
      'src/lib/moved.ts',
      `// moved here\n\n${PARSER.slice(PARSER.indexOf('export function parseConfig'), PARSER.indexOf('export function unrelated'))}`,
    );
    const result = await check.check(anchor);
    assert.equal(result.status, 'moved');
    assert.deepEqual(result.current, { path: 'src/lib/moved.ts', lines: { start: 3, end: 11 } });
  });

  it('a deleted file is gone; so is a symbol removed from a file that remains', async () => {
    const check = checker();
    const symbolAnchor = await check.create({ path: 'src/config/parser.ts', symbol: 'unrelated' });
    write('src/config/parser.ts', PARSER.replace(/export function unrelated[\s\S]*$/, ''));
    assert.equal((await check.check(symbolAnchor)).status, 'gone');
    const fileAnchor = await check.create({ path: 'src/config/parser.ts', symbol: 'parseConfig' });
    unlinkSync(join(root, 'src/config/parser.ts'));
    const result = await check.check(fileAnchor);
    assert.equal(result.status, 'gone');
    assert.equal(result.current, undefined);
  });

  it('re-checks after the file changes, not before (cache keyed on modification time)', async () => {
    const check = checker();
    const anchor = await check.create({ path: 'src/config/parser.ts', symbol: 'unrelated' });
    assert.equal((await check.check(anchor)).status, 'fresh');
    write(
      'src/config/parser.ts',
      PARSER.replace(
        'return 42;',
        'const answer = compute(6, 7, { cache: true });\n  return answer * factor + offset;',
      ),
    );
    assert.equal((await check.check(anchor)).status, 'changed');
  });

  it('refuses bad anchors with clear errors', async () => {
    const check = checker();
    const refused = async (input: Parameters<AnchorChecker['create']>[0], pattern: RegExp): Promise<void> => {
      await assert.rejects(
        check.create(input),
        (error: unknown) => MemoryError.is(error, 'INVALID_INPUT') && pattern.test(error.message),
      );
    };
    await refused({ path: '../outside.ts', lines: { start: 1, end: 2 } }, /stay inside it/);
    await refused({ path: '/etc/passwd', lines: { start: 1, end: 2 } }, /relative to the workspace/);
    await refused({ path: 'src/missing.ts', lines: { start: 1, end: 2 } }, /no file src\/missing\.ts/);
    await refused({ path: 'src/config/parser.ts', symbol: 'nope' }, /no symbol "nope"/);
    await refused({ path: 'src/config/parser.ts' }, /needs a symbol or lines/);
    await refused({ path: 'src/config/parser.ts', lines: { start: 5, end: 2 } }, /1 <= start <= end/);
    await refused({ path: 'src/config/parser.ts', lines: { start: 900, end: 901 } }, /has 16 lines/);
    await refused({ path: 'src/config/parser.ts', lines: { start: 2, end: 2 } }, /hold no code/);
  });
});
