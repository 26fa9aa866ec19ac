// A node:test reporter that records how long each file's top-level tests and suites took, as JSON
// lines, so `npm test` can name the slowest files after the run (the suite's time budget is
// spent by a few files; this says which). Start-up and imports before the first test are not in it.
export default async function* durationReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || !file) continue;
    yield `${JSON.stringify({ file, ms: details?.duration_ms ?? 0 })}\n`;
  }
}
