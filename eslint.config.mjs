// The layering of docs/architecture.md, enforced, rejecting by default. Each folder of src/ is a
// layer; LAYERS says what a layer's files may import: which other layers (and which parts of the
// core), whether Node built-ins, which third-party packages, whether the editor API. Anything not
// listed is refused (eslint/layerRule.mjs resolves each import and judges where it lands).
// The zones are derived from the folders of src/ when the config loads: a folder LAYERS does not
// declare (a new src/foo) gets no permissions at all — each of its files is reported as unlayered
// and may import only files of its own folder — and a LAYERS entry without its folder is an error,
// so the table and the tree cannot drift apart.
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './eslint/layerRule.mjs';

const root = import.meta.dirname;

/** What every layer outside the core may use of it: MemoryCore and the API it speaks in. */
const CORE_API = [
  'memoryCore',
  'coreSurface',
  'memoryEvents',
  'validation',
  'limits',
  'api',
  'domain',
  'ports',
  'anchors',
];
/** What composition roots and the editor also reach: the adapter-facing parts they wire up. */
const CORE_ADAPTERS = [...CORE_API, 'editor', 'extraction', 'enrichment'];

const LAYERS = {
  core: {
    layers: [],
    core: 'all',
    builtins: false,
    // Both are pure JavaScript with no platform API: zod declares the core's answer schemas
    // (core/api), js-tiktoken counts tokens for context budgets (core/tokens). Neither does I/O.
    packages: ['zod', 'js-tiktoken'],
    why: 'the core is the memory layer itself, free of the editor, Node, transports and providers; it reaches the world through core/ports',
  },
  stores: {
    layers: ['core'],
    core: ['ports', 'domain', 'text', 'util'],
    builtins: true,
    packages: [],
    why: "Stores implement the core's store port; besides it they share only the core's text analysis; the index, top-k and feedback they share live in src/stores/common.",
  },
  embeddings: {
    layers: ['core'],
    core: ['ports', 'domain'],
    builtins: false,
    packages: ['openai'],
    why: 'Embedding providers implement a core port.',
  },
  models: {
    layers: ['core'],
    core: ['ports', 'domain', 'extraction', 'enrichment'],
    builtins: false,
    packages: ['openai'],
    why: "Chat-model adapters implement the core's ChatModel port; the *FromEnv readers pick one from the environment.",
  },
  shared: {
    layers: ['core'],
    core: CORE_API,
    builtins: false,
    packages: ['zod'],
    why: 'src/shared is the panel contract, also bundled into the webview (a browser frame): core API types only.',
  },
  mcp: {
    layers: ['core', 'http'],
    core: CORE_API,
    builtins: true,
    packages: ['zod', '@modelcontextprotocol/sdk'],
    // One adapter holds the SDK, so its next major version (new packages and paths) changes one file.
    packageAdapters: { '@modelcontextprotocol/sdk': ['src/mcp/mcpSdk.ts'] },
    why: 'The MCP server uses the core API only.',
  },
  http: {
    layers: ['core', 'mcp', 'openspec'],
    core: CORE_API,
    builtins: true,
    packages: [],
    why: 'The HTTP server hosts the MCP and OpenSpec endpoints over the core API.',
  },
  chat: {
    layers: ['core', 'shared'],
    core: CORE_ADAPTERS,
    builtins: false,
    packages: [],
    why: "The chat participant's logic uses the core API only; src/vscode/chat connects it to the editor.",
  },
  openspec: {
    layers: ['core', 'mcp', 'http'],
    core: CORE_API,
    builtins: true,
    packages: [],
    why: 'The OpenSpec endpoints use the core API and the MCP server context only.',
  },
  panel: {
    layers: ['core', 'shared', 'http'],
    core: CORE_API,
    builtins: true,
    packages: ['zod'],
    why: 'The panel host uses the core API and the shared panel contract only.',
  },
  daemon: {
    layers: ['core', 'runtime', 'stores', 'models', 'mcp', 'http', 'shared'],
    core: CORE_ADAPTERS,
    builtins: true,
    packages: [],
    why: 'The memory process composes the runtime; it uses the core API.',
  },
  runtime: {
    layers: ['core', 'stores', 'embeddings'],
    core: 'all',
    builtins: true,
    packages: [],
    why: 'The runtime composes core, stores and embeddings only.',
  },
  cli: {
    layers: [
      'core',
      'stores',
      'embeddings',
      'models',
      'mcp',
      'openspec',
      'http',
      'panel',
      'chat',
      'daemon',
      'runtime',
      'shared',
    ],
    core: CORE_ADAPTERS,
    builtins: true,
    packages: [],
    why: 'The CLI composes every layer but the editor; it uses the core API.',
  },
  vscode: {
    layers: [
      'core',
      'stores',
      'embeddings',
      'models',
      'mcp',
      'openspec',
      'http',
      'panel',
      'chat',
      'daemon',
      'runtime',
      'cli',
      'shared',
    ],
    core: CORE_ADAPTERS,
    builtins: true,
    packages: [],
    editor: true,
    why: 'The extension uses the core API.',
  },
};

/** The policy of a folder LAYERS does not declare, and of files directly in src/: nothing. */
const undeclared = (name) => ({
  name,
  undeclared: true,
  layers: [],
  core: [],
  builtins: false,
  packages: [],
  why: 'an undeclared layer has no permissions',
});

const folders = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
for (const name of Object.keys(LAYERS))
  if (!folders.includes(name)) throw new Error(`eslint.config.mjs: LAYERS declares src/${name}, which does not exist.`);

// Node's globals are Node built-ins too. setImmediate (the core's yield to other work) and the
// NodeJS.Timeout type remain: a scheduler port would replace them (docs/architecture.md).
const NODE_GLOBALS = ['Buffer', 'process', 'require', '__dirname', '__filename', 'global'];
const coreGlobals = (files, names) => ({
  files,
  rules: {
    'no-restricted-globals': [
      'error',
      ...names.map((name) => ({
        name,
        message: `${name} is a Node global; the core runs where Node does not (core/util has platform-free helpers).`,
      })),
    ],
  },
});

const layerRule = (files, policy) => ({ files, rules: { 'layers/imports': ['error', policy] } });

/** Unlayered first (src/x.ts, and folders created after the config loaded), then one block per folder of src/. */
const layerBlocks = [
  layerRule(['src/**/*.ts'], undeclared('A file outside the folders of src/ this config read')),
  ...folders.map((name) =>
    layerRule(
      [`src/${name}/**/*.ts`],
      LAYERS[name] ? { name: `src/${name}`, ...LAYERS[name] } : undeclared(`src/${name}`),
    ),
  ),
  layerRule(['webview/**/*.ts'], {
    name: 'The webview',
    layers: ['shared'],
    core: [],
    builtins: false,
    packages: [],
    why: 'The webview runs in a browser frame and talks to the host only through src/shared (the panel contract).',
  }),
];

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
    plugins: { '@typescript-eslint': tseslint.plugin, layers: layersPlugin(root) },
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
  ...layerBlocks,
  coreGlobals(['src/core/**/*.ts'], NODE_GLOBALS),
  // The stderr logger, the default of the CLI and the memory process, writes to process.stderr; it
  // belongs beside the composition roots, and is the one file of the core allowed `process` until it moves.
  coreGlobals(
    ['src/core/ports/logger.ts'],
    NODE_GLOBALS.filter((name) => name !== 'process'),
  ),
  {
    files: ['webview/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: ['webview/tsconfig.json'] } },
  },
);
