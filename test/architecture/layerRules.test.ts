import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
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

/** The layer-rule messages ESLint gives for `source` as a file at `path` (relative to the repository). */
function layerMessages(path: string, source: string): string[] {
  const messages = linter.verify(source, [...config, untyped], { filename: `${root}${path}` });
  const fatal = messages.filter((message) => message.fatal);
  assert.deepEqual(fatal, [], `parsed ${path}`);
  return messages.filter((message) => message.ruleId === 'layers/imports').map((message) => message.message);
}

/** The messages for one import line. */
const importViolations = (path: string, specifier: string): string[] =>
  layerMessages(path, `import { x } from '${specifier}';\nexport { x };\n`);

const cases: Array<{ file: string; refused: string[]; allowed: string[] }> = [
  {
    file: 'src/core/retrieval/probe.ts',
    refused: [
      '../../stores/sqlite/sqliteStore.ts',
      '../../stores/common/lexicalIndex.ts',
      '../../mcp/defineTool.ts',
      '../../models/openAiChatModel.ts',
      'vscode',
      // Node built-ins, with or without the node: prefix, and their subpaths.
      'node:fs',
      'fs',
      'node:crypto',
      'fs/promises',
      'node:worker_threads',
      // Third-party packages other than the two pure ones the core lists.
      'openai',
      '@modelcontextprotocol/sdk/types.js',
      '../../../package.json',
    ],
    allowed: [
      '../domain/records.ts',
      '../text/analyze.ts',
      'zod',
      'js-tiktoken/lite',
      'js-tiktoken/ranks/cl100k_base',
      // A core subfolder named like a layer is still the core: the path is resolved, not matched.
      '../panel/probe.ts',
      '../mcp/probe.ts',
    ],
  },
  {
    file: 'src/stores/sqlite/probe.ts',
    refused: [
      '../../core/memoryCore.ts',
      '../../core/longterm/longTermMemory.ts',
      '../../mcp/schemas.ts',
      'vscode',
      'openai',
      '../../core/retrieval/recall.ts',
    ],
    allowed: [
      '../../core/ports/memoryStore.ts',
      '../../core/domain/records.ts',
      '../common/lexicalIndex.ts',
      '../common/topK.ts',
      'node:sqlite',
      'node:fs',
    ],
  },
  {
    file: 'src/embeddings/probe.ts',
    refused: ['node:fs', '../core/memoryCore.ts', '../stores/sqlite/sqliteStore.ts', 'vscode'],
    allowed: ['openai', '../core/ports/embeddingProvider.ts'],
  },
  {
    file: 'src/models/probe.ts',
    refused: ['node:http', '../core/memoryCore.ts', '../embeddings/openAiEmbeddings.ts', 'vscode', 'zod'],
    allowed: ['openai', '../core/ports/chatModel.ts', '../core/extraction/modelExtractor.ts'],
  },
  {
    file: 'src/mcp/tools/probe.ts',
    refused: [
      '../../core/lifecycle/links.ts',
      '../../core/working/workingMemory.ts',
      '../../panel/panelController.ts',
      'vscode',
      'openai',
    ],
    allowed: ['../../core/memoryCore.ts', '../../core/api/longTermApi.ts', 'zod', '../mcpSdk.ts'],
  },
  // The MCP SDK is imported by its one adapter module only.
  {
    file: 'src/mcp/createMcpServer.ts',
    refused: ['@modelcontextprotocol/sdk/types.js', '@modelcontextprotocol/sdk/server/index.js'],
    allowed: ['./mcpSdk.ts'],
  },
  {
    file: 'src/mcp/mcpSdk.ts',
    refused: ['openai'],
    allowed: ['@modelcontextprotocol/sdk/types.js', '@modelcontextprotocol/sdk/server/index.js'],
  },
  {
    file: 'src/shared/probe.ts',
    refused: ['node:fs', '../panel/panelController.ts', 'vscode'],
    allowed: ['zod', '../core/limits.ts'],
  },
  {
    file: 'src/panel/probe.ts',
    refused: [
      '../mcp/defineTool.ts',
      '../core/coreDeps.ts',
      '../stores/sqlite/sqliteStore.ts',
      '../vscode/panel/probe.ts',
    ],
    allowed: ['../core/coreSurface.ts', '../shared/panelProtocol.ts', 'node:http'],
  },
  {
    file: 'webview/views/probe.ts',
    refused: [
      '../../src/core/domain/records.ts',
      '../../src/panel/panelController.ts',
      'vscode',
      'node:fs',
      'zod',
      '../../eslint.config.mjs',
    ],
    allowed: ['../../src/shared/panelProtocol.ts', '../ui/dom.ts'],
  },
  {
    file: 'src/cli/probe.ts',
    refused: ['vscode', '../core/retrieval/recall.ts', '../vscode/extension.ts'],
    allowed: ['../runtime/createRuntime.ts', '../core/memoryCore.ts', '../models/extractorFromEnv.ts', 'node:fs'],
  },
  {
    file: 'src/vscode/probe.ts',
    refused: ['../core/longterm/longTermMemory.ts', 'openai'],
    allowed: ['vscode', '../core/editor/contextItems.ts', '../core/memoryCore.ts', 'node:path'],
  },
  // A folder no policy declares (src/foo) may import nothing outside itself.
  {
    file: 'src/foo/probe.ts',
    refused: ['vscode', 'node:fs', 'zod', 'openai', '../core/domain/records.ts', '../shared/panelProtocol.ts'],
    allowed: [],
  },
];

const UNDECLARED = /is not a declared layer/;

describe('layer rules (eslint.config.mjs)', () => {
  for (const { file, refused, allowed } of cases) {
    it(`${file}: refuses ${refused.join(', ')}${allowed.length ? `; allows ${allowed.join(', ')}` : ''}`, () => {
      for (const specifier of refused)
        assert.ok(
          importViolations(file, specifier).some((message) => !UNDECLARED.test(message)),
          `${file} must not import ${specifier}`,
        );
      for (const specifier of allowed)
        assert.deepEqual(importViolations(file, specifier), [], `${file} may import ${specifier}`);
    });
  }

  it('reports every file of an undeclared folder, even one that imports nothing, and says how to declare it', () => {
    for (const file of ['src/foo/x.ts', 'src/foo/deeper/y.ts', 'src/loose.ts']) {
      const messages = layerMessages(file, 'export const x = 1;\n');
      assert.equal(messages.length, 1, file);
      assert.match(messages[0]!, UNDECLARED);
      assert.match(messages[0]!, /eslint\.config\.mjs/);
    }
    // Within its own folder it may import: the one message is still the undeclared layer.
    assert.deepEqual(
      importViolations('src/foo/x.ts', './y.ts').filter((message) => !UNDECLARED.test(message)),
      [],
    );
  });

  it('declares every folder of src/ (no existing layer falls to the undeclared default)', () => {
    const folders = readdirSync(`${root}src`, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    assert.ok(folders.length > 10);
    for (const folder of folders)
      assert.deepEqual(layerMessages(`src/${folder.name}/probe.ts`, 'export const x = 1;\n'), [], folder.name);
  });

  it('checks re-exports, type-only imports, dynamic import() and require() as imports', () => {
    const core = 'src/core/retrieval/probe.ts';
    for (const source of [
      "export * from 'openai';\n",
      "export { z } from 'node:fs';\n",
      "import type OpenAI from 'openai';\nexport type T = OpenAI;\n",
      "export const load = () => import('node:fs');\n",
      "export const load = () => require('node:fs');\n",
      "export type T = import('vscode').Uri;\n",
    ])
      assert.notDeepEqual(layerMessages(core, source), [], source);
    assert.match(
      layerMessages(core, "const name = 'node:fs';\nexport const load = () => import(name);\n")[0] ?? '',
      /cannot be checked/,
    );
  });

  it("refuses Node's globals in the core (Buffer, process, require), not elsewhere", () => {
    const globals = (path: string, source: string) =>
      linter
        .verify(source, [...config, untyped], { filename: `${root}${path}` })
        .filter((message) => message.ruleId === 'no-restricted-globals');
    for (const source of [
      'export const n = Buffer.byteLength("x");\n',
      'export const env = process.env;\n',
      'export const here = __dirname;\n',
    ]) {
      assert.equal(globals('src/core/util/probe.ts', source).length, 1, source);
      assert.deepEqual(globals('src/stores/sqlite/probe.ts', source), [], source);
    }
  });

  it('allows the editor API in src/vscode only, and names src/vscode in the refusal', () => {
    for (const folder of ['core', 'mcp', 'chat', 'panel', 'daemon', 'runtime', 'cli', 'shared', 'foo'])
      assert.match(importViolations(`src/${folder}/probe.ts`, 'vscode').join('\n'), /Only src\/vscode/, folder);
    assert.deepEqual(importViolations('src/vscode/commands/probe.ts', 'vscode'), []);
  });
});
