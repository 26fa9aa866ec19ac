// The layering of README "How it is built", enforced: each zone names what its files may import.
// Relative imports are matched by the top-level folder they reach (src/<folder>/…); no folder
// inside src/core shares a name with a top-level one, so a match always means "left the zone".
import tseslint from 'typescript-eslint';

const TOP = [
  'core',
  'stores',
  'embeddings',
  'mcp',
  'openspec',
  'http',
  'panel',
  'chat',
  'daemon',
  'runtime',
  'cli',
  'vscode',
  'shared',
];

/** A rule entry that forbids reaching the given top-level folders of src (and the editor API unless allowed). */
function zone(files, { may = [], coreApiOnly = false, editorApi = false, coreFor = null, vscode = false, message }) {
  const forbidden = TOP.filter((folder) => !may.includes(folder));
  const patterns = [{ regex: `^(\\.\\./)+(src/)?(${forbidden.join('|')})/`, message }];
  if (coreApiOnly) {
    patterns.push({
      regex: `^(\\.\\./)+(src/)?core/(?!(memoryCore|memoryEvents|validation|limits|coreSurface)\\.ts$|(api|domain|ports|anchors${editorApi ? '|editor|extraction|enrichment|models' : ''})/)`,
      message:
        'Outside the core, use its API: MemoryCore, core/api, core/domain, core/ports and core/anchors (README, How it is built).',
    });
  }
  if (coreFor)
    patterns.push({
      regex: `^(\\.\\./)+core/(?!(${coreFor.join('|')})(/|\\.ts$))`,
      message: `This layer may use only the core's ${coreFor.join(', ')}.`,
    });
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns,
          ...(vscode ? {} : { paths: [{ name: 'vscode', message: 'Only src/vscode imports the editor API.' }] }),
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'reports/**',
      '.vscode-test/**',
      'media/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // A promise nobody awaits loses its error; background work says so with `void` and its own catch.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      'no-console': 'off',
    },
  },
  zone(['src/core/**/*.ts'], { may: ['core'], message: 'The core imports nothing outside src/core.' }),
  zone(['src/stores/**/*.ts'], {
    may: ['core', 'stores'],
    coreFor: ['ports', 'domain', 'text', 'util', 'retrieval/lexicalIndex', 'retrieval/topK'],
    message:
      "Stores implement the core ports; besides those they share only the core's search primitives (text analysis, the lexical index, top-k).",
  }),
  zone(['src/embeddings/**/*.ts'], {
    may: ['core', 'embeddings'],
    coreFor: ['ports', 'domain'],
    message: 'Embedding providers implement a core port.',
  }),
  zone(['src/shared/**/*.ts'], {
    may: ['core', 'shared'],
    coreApiOnly: true,
    message: 'src/shared is the panel contract: core API types only.',
  }),
  zone(['src/mcp/**/*.ts'], {
    may: ['core', 'mcp', 'http'],
    coreApiOnly: true,
    message: 'The MCP server uses the core API only.',
  }),
  zone(['src/http/**/*.ts'], {
    may: ['core', 'http', 'mcp', 'openspec'],
    coreApiOnly: true,
    message: 'The HTTP server hosts the MCP and OpenSpec endpoints over the core API.',
  }),
  zone(['src/chat/**/*.ts'], {
    may: ['core', 'chat', 'shared'],
    coreApiOnly: true,
    editorApi: true,
    message: "The chat participant's logic uses the core API only.",
  }),
  zone(['src/openspec/**/*.ts'], {
    may: ['core', 'openspec', 'mcp', 'http'],
    coreApiOnly: true,
    message: 'The OpenSpec endpoints use the core API and the MCP server context only.',
  }),
  zone(['src/panel/**/*.ts'], {
    may: ['core', 'panel', 'shared', 'http'],
    coreApiOnly: true,
    message: 'The panel host uses the core API and the shared panel contract only.',
  }),
  zone(['src/daemon/**/*.ts'], {
    may: ['core', 'daemon', 'runtime', 'stores', 'mcp', 'http', 'shared'],
    coreApiOnly: true,
    editorApi: true,
    message: 'The daemon composes the runtime; it uses the core API.',
  }),
  zone(['src/runtime/**/*.ts'], {
    may: ['core', 'runtime', 'stores', 'embeddings'],
    message: 'The runtime composes core, stores and embeddings only.',
  }),
  zone(['src/cli/**/*.ts'], {
    may: TOP.filter((folder) => folder !== 'vscode'),
    coreApiOnly: true,
    editorApi: true,
    message: 'The CLI uses the core API; never the editor.',
  }),
  zone(['src/vscode/**/*.ts'], {
    may: TOP,
    coreApiOnly: true,
    editorApi: true,
    vscode: true,
    message: 'The extension uses the core API.',
  }),
  {
    files: ['webview/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: ['webview/tsconfig.json'] } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!shared/)',
              message: 'The webview imports only src/shared (the panel contract).',
            },
          ],
          paths: [{ name: 'vscode', message: 'The webview runs in a browser frame; it has no editor API.' }],
        },
      ],
    },
  },
);
