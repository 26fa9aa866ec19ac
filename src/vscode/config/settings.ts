/**
 * Every setting of the extension, declared once. package.json's `contributes.configuration` is
 * generated from this table (test/vscode/tools/syncManifest.ts) and a unit test fails when the two
 * drift. Pure: no `vscode` import, so the table is testable in plain Node.
 */

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
  'memory.user.id': spec<string>({
    type: 'string', default: '', scope: 'application', order: 1,
    description: 'Your user id in the memory store. Empty: a stable id generated once for this machine. Set the same id on every machine that shares a Firebolt store.',
  }),
  'memory.scope': spec<'project' | 'all'>({
    type: 'string', default: 'project', enum: ['project', 'all'], order: 2,
    enumDescriptions: [
      'Memories belong to this workspace (its git remote, else its folder); other projects never see them.',
      'Memories are stored user-wide and recall searches all of your projects.',
    ],
    description: 'Which memories agents see in this window.',
  }),
  'memory.layers.teamId': spec<string>({
    type: 'string', default: '', restricted: true, order: 3,
    description: 'Your team\'s id. Set it to share memories with your team: agents then also see what was promoted to the team, and you can promote memories to it. Empty: nothing is shared with a team. Sharing needs a Firebolt store your team uses.',
  }),
  'memory.layers.orgId': spec<string>({ type: 'string', default: '', restricted: true, order: 4, description: 'Your organisation\'s id, to share memories organisation-wide (as for the team). Empty: nothing is shared organisation-wide.' }),
  'memory.layers.companyId': spec<string>({ type: 'string', default: '', restricted: true, order: 5, description: 'Your company\'s id, to share memories company-wide; team and project memories take precedence over them. Empty: nothing is shared company-wide.' }),
  'memory.layers.agentId': spec<string>({
    type: 'string', default: '', order: 6,
    description: 'An agent name, e.g. "copilot", to give that agent memories of its own that other agents do not see; they take precedence over all others. Empty: each client names its agent itself.',
  }),
  'memory.storage.backend': spec<'embedded' | 'firebolt-core' | 'firebolt-cloud'>({
    type: 'string', default: 'embedded', enum: ['embedded', 'firebolt-core', 'firebolt-cloud'], restricted: true, order: 10,
    enumDescriptions: ['SQLite in the editor\'s global storage, shared by all windows.', 'A Firebolt Core server (self-hosted).', 'Firebolt Cloud through a service account.'],
    description: 'Where memories are stored. Use "Memory: Configure Storage" to switch; it checks the connection first.',
  }),
  'memory.firebolt.core.url': spec<string>({ type: 'string', default: 'http://localhost:3473', restricted: true, order: 11, description: 'Firebolt Core endpoint.' }),
  'memory.firebolt.database': spec<string>({ type: 'string', default: 'fml_memory', restricted: true, order: 12, description: 'Firebolt database holding the memory tables.' }),
  'memory.firebolt.cloud.account': spec<string>({ type: 'string', default: '', restricted: true, order: 13, description: 'Firebolt Cloud account name.' }),
  'memory.firebolt.cloud.engine': spec<string>({ type: 'string', default: '', restricted: true, order: 14, description: 'Firebolt Cloud engine name.' }),
  'memory.firebolt.cloud.clientId': spec<string>({
    type: 'string', default: '', restricted: true, order: 15,
    description: 'Firebolt Cloud service account client id. The client secret is kept in the editor\'s secret storage, never in settings.',
  }),
  'memory.embeddings.provider': spec<'none' | 'openai'>({
    type: 'string', default: 'none', enum: ['none', 'openai'], restricted: true, order: 20,
    enumDescriptions: ['Full-text ranking only.', 'Any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, LM Studio…). Set the key with "Memory: Set Embedding API Key".'],
    description: 'Embedding provider for semantic recall.',
  }),
  'memory.embeddings.model': spec<string>({ type: 'string', default: 'text-embedding-3-small', restricted: true, order: 21, description: 'Embedding model name.' }),
  'memory.embeddings.dimensions': spec<number>({ type: 'number', default: 0, minimum: 0, maximum: 8192, restricted: true, order: 22, description: 'Requested vector size; 0 uses the model\'s default.' }),
  'memory.embeddings.baseUrl': spec<string>({ type: 'string', default: '', restricted: true, order: 23, description: 'Base URL of an OpenAI-compatible endpoint; empty for api.openai.com.' }),
  'memory.workingMemory.maxTokens': spec<number>({ type: 'number', default: 8000, minimum: 500, maximum: 2000000, order: 30, description: 'Token budget of this window\'s working memory.' }),
  'memory.workingMemory.evictionPolicy': spec<'lru' | 'relevance' | 'hybrid'>({
    type: 'string', default: 'hybrid', enum: ['lru', 'relevance', 'hybrid'], order: 31,
    description: 'Which working-memory items go first when the budget is full.',
  }),
  'memory.capture.activeEditor': spec<boolean>({ type: 'boolean', default: true, order: 40, description: 'Capture the active file and selection into working memory.' }),
  'memory.capture.openEditors': spec<boolean>({ type: 'boolean', default: true, order: 41, description: 'Capture the list of visible editors.' }),
  'memory.capture.diagnostics': spec<boolean>({ type: 'boolean', default: true, order: 42, description: 'Capture errors and warnings (file, line, message).' }),
  'memory.capture.terminal': spec<boolean>({ type: 'boolean', default: true, order: 43, description: 'Capture failed terminal commands and their exit codes (needs shell integration).' }),
  'memory.capture.git': spec<boolean>({ type: 'boolean', default: true, order: 44, description: 'Capture the current git branch.' }),
  'memory.capture.tasks': spec<boolean>({ type: 'boolean', default: true, order: 45, description: 'Capture the last failed task or test run.' }),
  'memory.capture.resolvedErrors': spec<boolean>({
    type: 'boolean', default: true, order: 46,
    description: 'When an error disappears after your edit, remember what fixed it (a long-term outcome memory).',
  }),
  'memory.capture.exclude': spec<string[]>({
    type: 'array', items: { type: 'string' }, default: [], order: 47,
    description: 'Glob patterns of files never captured, in addition to files.exclude, .env files and key files.',
  }),
  'memory.mcp.adminTools': spec<boolean>({
    type: 'boolean', default: false, order: 50,
    description: 'Offer agents the lifecycle and administration tools too (contradictions, links, maintenance, quality report, analytics, recent calls and errors, import/export, promotion). Off: agents get the 15 everyday tools, which keeps every request smaller; the Memory panel has all of them either way.',
  }),
  'memory.extraction.useLanguageModel': spec<boolean>({
    type: 'boolean', default: false, restricted: true, order: 60,
    description: 'Extract memories from checkpointed working memory with a Copilot language model (VS Code asks for consent the first time). Off: the offline rule-based extractor.',
  }),
  'memory.extraction.languageModelFamily': spec<string>({
    type: 'string', default: '', restricted: true, order: 61,
    description: 'Language model family for extraction, e.g. gpt-4o-mini. Empty: the first Copilot chat model.',
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
    properties[key] = { ...schema };
  }
  return properties;
}

export function restrictedSettingKeys(): SettingKey[] {
  return SETTING_KEYS.filter((key) => (SETTINGS[key] as SettingSpec<unknown>).restricted === true);
}

/**
 * Reads a setting through `get` (the editor's configuration) and falls back to the declared
 * default when the stored value has the wrong type, so a hand-edited settings.json cannot crash capture.
 */
export function readSetting<K extends SettingKey>(key: K, get: (key: string) => unknown): SettingValue<K> {
  const declared = SETTINGS[key] as SettingSpec<unknown>;
  const value = get(key);
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
