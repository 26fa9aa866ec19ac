// Writes the extension's manifest parts into package.json, leaving every other key as it is:
//   /work/main/node_modules/.bin/node test/vscode/tools/syncManifest.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { extensionManifest } from './manifest.ts';

const path = new URL('../../../package.json', import.meta.url);
const pkg = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const parts = extensionManifest((pkg.contributes as Record<string, unknown>) ?? {});
for (const [key, value] of Object.entries(parts)) pkg[key] = value;
writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package.json: updated ${Object.keys(parts).join(', ')}`);
