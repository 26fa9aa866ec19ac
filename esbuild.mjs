// Three bundles, one per process: the CLI/MCP server (node), the VS Code extension (node, `vscode` external)
// and the panel webview (browser). `--production` minifies and drops source maps for packaging.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { firstWideCharacter, latin1Sources } from './scripts/latin1Sources.mjs';
import { lazyRankTable, writeRankTable } from './scripts/lazyRankTable.mjs';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };
// Node bundles are Latin-1 throughout, so V8 holds their source at one byte a character (scripts/latin1Sources.mjs).
const node = {
  ...common,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: ['vscode', 'node:sqlite'],
  charset: 'ascii',
  plugins: [latin1Sources, lazyRankTable],
};

const entries = [
  { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
];
if (existsSync('src/vscode/extension.ts'))
  entries.push({ ...node, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js' });
if (existsSync('webview/main.ts')) {
  entries.push({
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview/main.js',
  });
  // Panel styles, and the codicon font copied next to them: the packaged extension ships no node_modules.
  entries.push({
    ...common,
    entryPoints: ['webview/styles/panel.css', 'webview/styles/browserTheme.css'],
    outdir: 'dist/webview',
  });
  mkdirSync('dist/webview/codicons', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf'])
    copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/webview/codicons/${file}`);
}

mkdirSync('dist', { recursive: true });
// The package is "type": "module" for the TypeScript sources; the bundles are CommonJS.
writeFileSync('dist/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
writeRankTable('dist');
await Promise.all(entries.map((options) => build(options)));
for (const { outfile, platform } of entries) {
  if (platform !== 'node') continue;
  const wide = firstWideCharacter(readFileSync(outfile, 'utf8'));
  if (wide !== null)
    throw new Error(
      `${outfile} holds a character above U+00FF at ${wide}: its source would take two bytes a character.`,
    );
}
writeFileSync('dist/.build-stamp', new Date().toISOString() + '\n');
