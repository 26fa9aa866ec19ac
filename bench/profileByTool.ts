/**
 * Where one tool's time goes in `npm run bench`: the samples of a `node --cpu-prof` run that fall
 * inside that tool's timed calls (the spans `bench/run.ts --spans FILE` writes), by function.
 * `--exclude saveNow` counts apart the samples under that function: background work (the persisted
 * index's save, say) that a timer ran inside whichever call happened to yield to the event loop.
 *
 *   node --cpu-prof --cpu-prof-dir=DIR bench/run.ts --text-only --size 100000 --spans DIR/spans.json
 *   node bench/profileByTool.ts DIR/CPU.*.0.001.cpuprofile DIR/spans.json store_memory [--top 30] [--exclude saveNow]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { summarizeProfile } from './cpuProfile.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, exclude: { type: 'string' } },
});
const [profileFile, spansFile, tool] = positionals;
if (!profileFile || !spansFile || !tool) {
  console.error('usage: node bench/profileByTool.ts PROFILE.cpuprofile SPANS.json TOOL [--top N] [--exclude FUNCTION]');
  process.exit(2);
}
const spans = (JSON.parse(readFileSync(spansFile, 'utf8')) as Array<{ tool: string; fromUs: number; toUs: number }>)
  .filter((span) => span.tool === tool)
  .sort((a, b) => a.fromUs - b.fromUs);
const summary = summarizeProfile(profileFile, spans, Number(values.top), values.exclude);
const perCall = (msTotal: number): string => (msTotal / spans.length).toFixed(2);
console.log(
  `${tool}: ${spans.length} calls, ${summary.windowMs.toFixed(0)} ms inside them, ${summary.sampledMs.toFixed(0)} ms sampled (${perCall(summary.sampledMs)} ms per call)` +
    (values.exclude
      ? `, plus ${summary.excludedMs.toFixed(0)} ms under ${values.exclude} (${perCall(summary.excludedMs)} ms per call)`
      : ''),
);
for (const [title, rows] of [
  ['self', summary.rows],
  ['total (with callees)', summary.totals],
] as const) {
  console.log(`\n| ${title}, ms per call | share | function | where |\n|---|---|---|---|`);
  for (const row of rows)
    console.log(`| ${perCall(row.ms)} | ${(row.share * 100).toFixed(1)}% | ${row.name} | ${row.where} |`);
}
