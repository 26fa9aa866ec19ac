import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Linter } from 'eslint';
import config from '../../eslint.config.mjs';

const root = new URL('../..', import.meta.url).pathname;
const linter = new Linter({ cwd: root, configType: 'flat' });
// The layer rules need no type information; the type-aware rules are checked by `npm test`'s lint step.
const untyped: Linter.Config = {
  files: ['**/*.ts'],
  languageOptions: { parserOptions: { projectService: false, project: null } },
  rules: {
    '@typescript-eslint/no-floating-promises': 'off',
    '@typescript-eslint/no-misused-promises': 'off',
    '@typescript-eslint/no-unused-vars': 'off',
  },
};

/** The layer-rule messages ESLint gives for one import line in a file at `path`. */
function importViolations(path: string, specifier: string): string[] {
  const messages = linter.verify(`import { x } from '${specifier}';\nexport { x };\n`, [...config, untyped], {
    filename: `${root}${path}`,
  });
  const fatal = messages.filter((message) => message.fatal);
  assert.deepEqual(fatal, [], `parsed ${path}`);
  return messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

const cases: Array<{ file: string; refused: string[]; allowed: string[] }> = [
  {
    file: 'src/core/retrieval/probe.ts',
    refused: ['../../stores/sqlite/sqliteStore.ts', '../../mcp/defineTool.ts', 'vscode'],
    allowed: ['../domain/records.ts', '../text/analyze.ts'],
  },
  {
    file: 'src/stores/sqlite/probe.ts',
    refused: ['../../core/memoryCore.ts', '../../core/longterm/longTermMemory.ts', '../../mcp/schemas.ts'],
    allowed: [
      '../../core/ports/memoryStore.ts',
      '../../core/domain/records.ts',
      '../../core/retrieval/lexicalIndex.ts',
    ],
  },
  {
    file: 'src/mcp/tools/probe.ts',
    refused: [
      '../../core/lifecycle/links.ts',
      '../../core/working/workingMemory.ts',
      '../../panel/panelController.ts',
      'vscode',
    ],
    allowed: ['../../core/memoryCore.ts', '../../core/api/longTermApi.ts'],
  },
  {
    file: 'src/panel/probe.ts',
    refused: ['../mcp/defineTool.ts', '../core/coreDeps.ts', '../stores/sqlite/sqliteStore.ts'],
    allowed: ['../core/coreSurface.ts', '../shared/panelProtocol.ts'],
  },
  {
    file: 'webview/views/probe.ts',
    refused: ['../../src/core/domain/records.ts', '../../src/panel/panelController.ts', 'vscode'],
    allowed: ['../../src/shared/panelProtocol.ts', '../ui/dom.ts'],
  },
  {
    file: 'src/cli/probe.ts',
    refused: ['vscode', '../core/retrieval/recall.ts'],
    allowed: ['../runtime/createRuntime.ts', '../core/memoryCore.ts'],
  },
  {
    file: 'src/vscode/probe.ts',
    refused: ['../core/longterm/longTermMemory.ts'],
    allowed: ['vscode', '../core/editor/contextItems.ts', '../core/memoryCore.ts'],
  },
];

describe('layer rules (eslint.config.mjs)', () => {
  for (const { file, refused, allowed } of cases) {
    it(`${file}: refuses ${refused.join(', ')}; allows ${allowed.join(', ')}`, () => {
      for (const specifier of refused)
        assert.notDeepEqual(importViolations(file, specifier), [], `${file} must not import ${specifier}`);
      for (const specifier of allowed)
        assert.deepEqual(importViolations(file, specifier), [], `${file} may import ${specifier}`);
    });
  }
});
