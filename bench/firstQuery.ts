/**
 * The CPU of a fresh process's first query expansion (queryConcepts), the part of a first recall that
 * runs in code not yet compiled: a bundle of queryConcepts alone, built with esbuild from `--root`'s
 * sources (default this checkout; another build's worktree for a before/after pair), run in `--runs`
 * fresh processes; prints the median and quartiles of the first and of a second query's CPU.
 *
 *   node bench/firstQuery.ts [--root DIR] [--runs 15]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({ options: { root: { type: 'string' }, runs: { type: 'string', default: '15' } } });
const root = resolve(values.root ?? new URL('..', import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), 'fml-first-query-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { queryConcepts } from ${JSON.stringify(join(root, 'src/core/retrieval/queryConcepts.ts'))};
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
const start = cpu();
queryConcepts('how do we deploy the server cache');
const first = cpu() - start;
queryConcepts('which database migration tool does billing use');
process.stdout.write(JSON.stringify([first, cpu() - start - first]));
`,
  );
  const outfile = join(dir, 'firstQuery.cjs');
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
  const firsts: number[] = [];
  const seconds: number[] = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const ran = spawnSync(process.execPath, [outfile], { encoding: 'utf8' });
    if (ran.status !== 0) throw new Error(`the first-query bundle failed:\n${ran.stderr}`);
    const [first, second] = JSON.parse(ran.stdout) as [number, number];
    firsts.push(first);
    seconds.push(second);
  }
  const quartiles = (values: number[]): string => {
    const sorted = values.slice().sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
    return `${at(0.5)} ms (q1 ${at(0.25)}, q3 ${at(0.75)})`;
  };
  console.log(
    `${root}: first query CPU ${quartiles(firsts)}; second ${quartiles(seconds)}; ${firsts.length} fresh processes; load ${loadavg()
      .map((load) => load.toFixed(1))
      .join(', ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
