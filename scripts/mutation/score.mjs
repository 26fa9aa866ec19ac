// Scores one Stryker JSON report (mutation-testing-report-schema): killed and timed-out mutants
// count as detected; mutants that do not compile or are ignored are not valid and do not count.
import { relative } from 'node:path';

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

export function scoreOf(report, root) {
  let detected = 0;
  let survived = 0;
  let noCoverage = 0;
  const survivors = [];
  for (const [path, file] of Object.entries(report.files)) {
    const lines = file.source.split('\n');
    for (const mutant of file.mutants) {
      if (DETECTED.has(mutant.status)) detected += 1;
      if (!UNDETECTED.has(mutant.status)) continue;
      if (mutant.status === 'Survived') survived += 1;
      else noCoverage += 1;
      const line = mutant.location.start.line;
      survivors.push({
        file: relative(root, path.startsWith('/') ? path : `${root}/${path}`),
        line,
        mutator: mutant.mutatorName,
        replacement: mutant.replacement ?? '',
        original: lines[line - 1]?.trim() ?? '',
        status: mutant.status,
      });
    }
  }
  const valid = detected + survived + noCoverage;
  return { valid, detected, survived, noCoverage, score: valid === 0 ? 0 : (100 * detected) / valid, survivors };
}
