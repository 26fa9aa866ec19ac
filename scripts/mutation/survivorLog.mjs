// A StrykerJS reporter that appends every undetected mutant to a JSON-lines file the moment it is
// tested (`reports/mutation/<module>.survivors.jsonl`), so the survivors of a long run can be read
// and worked on while it runs; the JSON report is written only at the end.
import { appendFileSync, writeFileSync } from 'node:fs';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

class SurvivorLog {
  static inject = [commonTokens.options];
  constructor(options) {
    this.fileName = options.survivorLog.fileName;
    writeFileSync(this.fileName, '');
  }
  onMutantTested(result) {
    if (result.status !== 'Survived' && result.status !== 'NoCoverage') return;
    const { fileName, location, mutatorName, replacement, status } = result;
    appendFileSync(
      this.fileName,
      // The whole location (line and column of start and end), so a survivor can be applied by hand.
      `${JSON.stringify({ fileName, line: location.start.line, location, mutatorName, replacement, status })}\n`,
    );
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'survivor-log', SurvivorLog)];
