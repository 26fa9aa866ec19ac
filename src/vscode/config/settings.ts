/**
 * Every setting of the extension, declared once. package.json's `contributes.configuration` is
 * generated from this table (test/vscode/tools/syncManifest.ts) and a unit test fails when the two
 * drift. Pure: no `vscode` import, so the table is testable in plain Node.
 *
 * Keys are relative to the extension's own prefix (SETTINGS_SECTION, `fireboltMemory`): the key
 * `storage.backend` is the setting `fireboltMemory.storage.backend` users see and write.
 */
import { settingId } from '../../core/domain/settingIds.ts';

interface SettingSpec<T> {
  default: T;
  description: string;
  type: 'string' | 'number' | 'boolean' | 'array';
  enum?: readonly string[];
  enumDescriptions?: readonly string[];
  minimum?: number;
  maximum?: number;
  items?: { type: 'string' };
  /** VS Code setting scope: `application` settings cannot be set per workspace. */
  scope?: 'application' | 'machine' | 'window' | 'resource';
  /** Workspace-provided values are ignored in Restricted Mode (untrusted folders). */
  restricted?: boolean;
  order: number;
}

const spec = <T>(value: SettingSpec<T>): SettingSpec<T> => value;

export const SETTINGS = {
  'user.id': spec<string>({
    type: 'string',
    default: '',
    scope: 'application',
    order: 1,
    description:
      'Who you are in the memory store. Leave empty to use an id generated once for this machine. Set the same id on every machine that shares a Firebolt store, so each of them sees your memories.',
  }),
  scope: spec<'project' | 'all'>({
    type: 'string',
    default: 'project',
    enum: ['project', 'all'],
    order: 2,
    enumDescriptions: [
      'Memories belong to this workspace (its git remote, else its folder); other projects never see them.',
      'Memories are stored user-wide and recall searches all of your projects.',
    ],
    description: 'Which of your memories agents and searches see in this window.',
  }),
  'layers.teamId': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 3,
    description:
      "Your team's id. Set it to share memories with your team: agents then also see what was promoted to the team, and you can promote memories to it. Empty: nothing is shared with a team. Sharing needs a Firebolt store your team uses.",
  }),
  'layers.orgId': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 4,
    description:
      "Your organisation's id, to share memories organisation-wide (as for the team). Empty: nothing is shared organisation-wide.",
  }),
  'layers.companyId': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 5,
    description:
      "Your company's id, to share memories company-wide; team and project memories take precedence over them. Empty: nothing is shared company-wide.",
  }),
  'layers.agentId': spec<string>({
    type: 'string',
    default: '',
    order: 6,
    description:
      'An agent name, e.g. "copilot", to give that agent memories of its own that other agents do not see; they take precedence over all others. Empty: each client names its agent itself.',
  }),
  'storage.backend': spec<'embedded' | 'firebolt-core' | 'firebolt-cloud'>({
    type: 'string',
    default: 'embedded',
    enum: ['embedded', 'firebolt-core', 'firebolt-cloud'],
    restricted: true,
    order: 10,
    enumDescriptions: [
      "A local database file in the editor's storage, shared by all your windows. Nothing to set up.",
      'A Firebolt Core server you run yourself, e.g. in Docker; shareable with your team.',
      'Firebolt Cloud, signed in with a service account; shareable with your team.',
    ],
    description:
      'Where your memories are stored. Use "Memory: Configure Storage" to switch: it checks the connection before saving.',
  }),
  'firebolt.core.url': spec<string>({
    type: 'string',
    default: 'http://localhost:3473',
    restricted: true,
    order: 11,
    description: 'Address of your Firebolt Core server.',
  }),
  'firebolt.database': spec<string>({
    type: 'string',
    default: 'fml_memory',
    restricted: true,
    order: 12,
    description: 'Name of the Firebolt database that holds your memories.',
  }),
  'firebolt.cloud.account': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 13,
    description: 'Your Firebolt Cloud account name.',
  }),
  'firebolt.cloud.engine': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 14,
    description: 'The Firebolt Cloud engine that runs the memory queries.',
  }),
  'firebolt.cloud.clientId': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 15,
    description:
      'Client id of your Firebolt Cloud service account. Its secret is asked for by "Memory: Configure Storage" and kept in the editor\'s secret storage, never in settings.',
  }),
  'embeddings.provider': spec<'none' | 'openai' | 'ollama'>({
    type: 'string',
    default: 'none',
    enum: ['none', 'openai', 'ollama'],
    restricted: true,
    order: 20,
    enumDescriptions: [
      'Recall matches the words you use (full-text ranking). Nothing leaves your machine.',
      'Recall also matches by meaning, through any OpenAI-compatible embeddings service (OpenAI, LM Studio…); memory text is sent to it. Set its key with "Memory: Set Embedding API Key".',
      'Recall also matches by meaning, with an Ollama server on this machine: no key, nothing leaves your machine. Checked when the memory store opens; the Output channel and the Overview say what was found.',
    ],
    description: 'Whether recall finds memories by meaning as well as by words.',
  }),
  'embeddings.model': spec<string>({
    type: 'string',
    default: 'text-embedding-3-small',
    restricted: true,
    order: 21,
    description: 'Name of the embedding model to ask the service for.',
  }),
  'embeddings.dimensions': spec<number>({
    type: 'number',
    default: 0,
    minimum: 0,
    maximum: 8192,
    restricted: true,
    order: 22,
    description:
      "Length of the vectors to ask the embedding model for; 0 keeps the model's own length. Change it only for models that offer shorter vectors.",
  }),
  'embeddings.baseUrl': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 23,
    description: 'Address of your embeddings service, e.g. http://localhost:11434/v1 for Ollama. Empty: OpenAI itself.',
  }),
  'embeddings.ollamaUrl': spec<string>({
    type: 'string',
    default: 'http://localhost:11434',
    restricted: true,
    order: 24,
    description:
      'With the "ollama" provider: address of the Ollama server. It must be on this machine (localhost, 127.0.0.1 or [::1]); nothing is contacted unless the provider is "ollama".',
  }),
  'embeddings.ollamaModel': spec<string>({
    type: 'string',
    default: 'nomic-embed-text',
    restricted: true,
    order: 25,
    description:
      'With the "ollama" provider: the embedding model (get it with "ollama pull <name>"). When the server does not have it, the first embedding model it has is used.',
  }),
  'workingMemory.maxTokens': spec<number>({
    type: 'number',
    default: 8000,
    minimum: 500,
    maximum: 2000000,
    order: 30,
    description:
      "How much this window's working memory (the files, errors and failed commands of what you are doing now) may hold, in tokens. When it is full, items are dropped as the next setting says.",
  }),
  'workingMemory.evictionPolicy': spec<'lru' | 'relevance' | 'hybrid'>({
    type: 'string',
    default: 'hybrid',
    enum: ['lru', 'relevance', 'hybrid'],
    order: 31,
    enumDescriptions: [
      'The item used longest ago goes first.',
      'The item least related to what you are working on goes first.',
      'Both: old and unrelated items go first.',
    ],
    description: 'Which working-memory item is dropped first when working memory is full.',
  }),
  'capture.activeEditor': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 40,
    description:
      'Keep the file you are editing and your selection in working memory, so agents know what you are looking at.',
  }),
  'capture.openEditors': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 41,
    description: 'Keep the list of files open in editors in working memory.',
  }),
  'capture.diagnostics': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 42,
    description: 'Keep the errors and warnings of your files (file, line, message) in working memory.',
  }),
  'capture.terminal': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 43,
    description:
      "Keep failed terminal commands and their exit codes in working memory (needs the terminal's shell integration).",
  }),
  'capture.git': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 44,
    description: 'Keep the current git branch in working memory.',
  }),
  'capture.tasks': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 45,
    description: 'Keep the last failed task or test run in working memory.',
  }),
  'capture.resolvedErrors': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 46,
    description:
      'When an error disappears after your edit, remember what fixed it, so an agent can reuse the fix next time.',
  }),
  'capture.exclude': spec<string[]>({
    type: 'array',
    items: { type: 'string' },
    default: [],
    order: 47,
    description:
      'Files never kept in working memory, as glob patterns (e.g. **/secrets/**). Files excluded by files.exclude, .env files and key files are never kept either.',
  }),
  'anchors.codeLens': spec<boolean>({
    type: 'boolean',
    default: true,
    order: 48,
    description:
      'Show a line above code that memories are about, naming them and saying whether the code changed since they were stored; click it to read them.',
  }),
  'repoMemories.enabled': spec<boolean>({
    type: 'boolean',
    default: false,
    scope: 'resource',
    restricted: true,
    order: 49,
    description:
      "Share this project's memories as files in the repository's .memory/ folder, one Markdown file per memory, reviewed in pull requests and shared by git. Storing or promoting a memory to the project layer writes its file; editing or deleting a file (also by a pull, a branch switch or a merge) updates the memories. Only project memories are written, never your own, the agent's or a session's; a file holding a credential is reported in Problems and not read. Off: nothing is written and the files are not read (existing files and memories stay).",
  }),
  'repoMemories.agentsFile': spec<'' | 'AGENTS.md' | '.github/copilot-instructions.md' | 'CLAUDE.md'>({
    type: 'string',
    default: '',
    enum: ['', 'AGENTS.md', '.github/copilot-instructions.md', 'CLAUDE.md'],
    scope: 'resource',
    restricted: true,
    order: 49,
    enumDescriptions: [
      'No instructions file is kept.',
      'Keep a marked section of AGENTS.md with the pinned project memories.',
      'Keep a marked section of .github/copilot-instructions.md with the pinned project memories.',
      'Keep a marked section of CLAUDE.md with the pinned project memories.',
    ],
    description:
      "While project memories are shared in the repository, also keep this file's marked section (between <!-- fml:begin --> and <!-- fml:end -->) in step with the pinned project memories, for agents without MCP. Text outside the markers is never changed.",
  }),
  'mcp.adminTools': spec<boolean>({
    type: 'boolean',
    default: false,
    order: 50,
    description:
      'Offer agents the lifecycle and administration tools too (contradictions, links, maintenance, quality report, analytics, recent calls and errors, import/export, promotion). Off: agents get the 15 everyday tools, which keeps every request smaller; the Memory panel has all of them either way.',
  }),
  'extraction.useLanguageModel': spec<boolean>({
    type: 'boolean',
    default: false,
    restricted: true,
    order: 60,
    description:
      "Let a language model turn your work sessions into long-term memories (a Copilot model, VS Code asks for your consent the first time) and write @memory's chat answers from your memories (the model picked in the chat). The text is sent to that model. It also adds search keys (synonyms, categories, questions answered) to your stored memories in the background, so recall finds them in other words; never in an untrusted workspace, never for text that held a secret or is about an excluded file. Off: memories are extracted on this machine by rules, no model adds search keys, and @memory lists the memories instead of answering.",
  }),
  'extraction.languageModelFamily': spec<string>({
    type: 'string',
    default: '',
    restricted: true,
    order: 61,
    description:
      'Which Copilot model to use when a language model is allowed, e.g. gpt-4o-mini. Empty: the first Copilot chat model available.',
  }),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = (typeof SETTINGS)[K] extends SettingSpec<infer T> ? T : never;

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** The `contributes.configuration.properties` object package.json must contain. */
export function manifestConfigurationProperties(): Record<string, Record<string, unknown>> {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const key of SETTING_KEYS) {
    const { restricted: _restricted, ...schema } = SETTINGS[key] as SettingSpec<unknown>;
    properties[settingId(key)] = { ...schema };
  }
  return properties;
}

/** Full ids of the settings whose workspace values Restricted Mode ignores. */
export function restrictedSettingIds(): string[] {
  return SETTING_KEYS.filter((key) => (SETTINGS[key] as SettingSpec<unknown>).restricted === true).map(settingId);
}

/**
 * Reads a setting through `get` (the editor's configuration, asked for the full id) and falls back to the declared
 * default when the stored value has the wrong type, so a hand-edited settings.json cannot crash capture.
 */
export function readSetting<K extends SettingKey>(key: K, get: (key: string) => unknown): SettingValue<K> {
  const declared = SETTINGS[key] as SettingSpec<unknown>;
  const value = get(settingId(key));
  const fallback = declared.default as SettingValue<K>;
  if (value === undefined || value === null) return fallback;
  switch (declared.type) {
    case 'string':
      if (typeof value !== 'string') return fallback;
      return (declared.enum && !declared.enum.includes(value) ? fallback : value) as SettingValue<K>;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
      return Math.min(declared.maximum ?? Infinity, Math.max(declared.minimum ?? -Infinity, value)) as SettingValue<K>;
    case 'boolean':
      return (typeof value === 'boolean' ? value : fallback) as SettingValue<K>;
    case 'array':
      return (Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : fallback) as SettingValue<K>;
  }
}
