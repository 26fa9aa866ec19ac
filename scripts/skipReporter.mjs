// A node:test reporter that records every skipped test and suite (file, name, reason) as JSON
// lines, so `npm test` can list them by name after the run: a skipped suite must not look like a pass.
export default async function* skipReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, name, file, details } = event.data;
    if (skip === undefined || skip === false) continue;
    yield `${JSON.stringify({ file: file ?? '', name, kind: details?.type ?? 'test', reason: skip === true ? '(no reason given)' : String(skip) })}\n`;
  }
}
