import type * as vscode from 'vscode';
import type { LayerDefaults } from '../../core/domain/layers.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import { requireId } from '../../core/validation.ts';
import { backendConfigFromSettings } from '../../runtime/backendSelection.ts';
import {
  type BackendConfig,
  checkedOllamaConfig,
  type EmbeddingConfig,
  ollamaEmbeddingConfig,
  type RuntimeConfig,
} from '../../runtime/runtimeConfig.ts';
import { DEFAULT_OLLAMA_EMBEDDING_MODEL, DEFAULT_OLLAMA_URL } from '../../runtime/ollamaCheck.ts';
import type { EmbeddingStartupCheck } from '../../core/ports/embeddingProvider.ts';
import { setting } from '../config/vscodeSettings.ts';
import { SECRET_KEYS } from './secretKeys.ts';
import { settingId } from '../../core/domain/settingIds.ts';

export type StorageKind = 'embedded' | 'firebolt-core' | 'firebolt-cloud';

/** A storage choice before it becomes a runtime backend; what Configure Storage edits and validates. */
export type StorageChoice =
  | { kind: 'embedded' }
  | { kind: 'firebolt-core'; url: string; database: string }
  | {
      kind: 'firebolt-cloud';
      account: string;
      engine: string;
      database: string;
      clientId: string;
      clientSecret: string;
    };

export async function storageChoiceFromSettings(secrets: vscode.SecretStorage): Promise<StorageChoice> {
  const kind = setting('storage.backend');
  switch (kind) {
    case 'embedded':
      return { kind };
    case 'firebolt-core':
      return { kind, url: setting('firebolt.core.url'), database: setting('firebolt.database') };
    case 'firebolt-cloud':
      return {
        kind,
        account: setting('firebolt.cloud.account'),
        engine: setting('firebolt.cloud.engine'),
        database: setting('firebolt.database'),
        clientId: setting('firebolt.cloud.clientId'),
        clientSecret: (await secrets.get(SECRET_KEYS.fireboltClientSecret)) ?? '',
      };
  }
}

/**
 * The runtime backend for a choice, through the runtime's one settings-to-backend mapping (shared
 * with the CLI). The embedded store lives in the extension's global storage, shared by every window
 * and by the stdio bridge; a Firebolt backend keeps its local replica and outbox there too.
 */
export function backendFor(choice: StorageChoice, dataDir: string): BackendConfig {
  switch (choice.kind) {
    case 'embedded':
      return backendConfigFromSettings({ backend: 'sqlite', dataDir });
    case 'firebolt-core':
      return backendConfigFromSettings({
        backend: choice.kind,
        dataDir,
        coreUrl: choice.url,
        database: choice.database,
      });
    case 'firebolt-cloud':
      return backendConfigFromSettings({
        backend: choice.kind,
        dataDir,
        account: choice.account,
        engine: choice.engine,
        database: choice.database,
        clientId: choice.clientId,
        clientSecret: choice.clientSecret,
      });
  }
}

export async function embeddingsFromSettings(secrets: vscode.SecretStorage): Promise<EmbeddingConfig> {
  const provider = setting('embeddings.provider');
  if (provider === 'none') return { kind: 'none' };
  if (provider === 'ollama') return ollamaEmbeddingsFromSettings();
  const apiKey = await secrets.get(SECRET_KEYS.embeddingApiKey);
  const baseUrl = setting('embeddings.baseUrl').trim();
  // Local OpenAI-compatible servers (Ollama, LM Studio) accept any key.
  if (!apiKey && baseUrl === '') {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `${settingId('embeddings.provider')} is "openai" but no API key is set. Run "Memory: Set Embedding API Key", or set ${settingId('embeddings.baseUrl')} for a local server.`,
    );
  }
  const dimensions = setting('embeddings.dimensions');
  return {
    kind: 'openai',
    apiKey: apiKey ?? 'not-needed',
    model: setting('embeddings.model'),
    ...(baseUrl ? { baseUrl } : {}),
    ...(dimensions > 0 ? { dimensions } : {}),
  };
}

/** The editor's Ollama settings, through the same mapping as the CLI's FML_OLLAMA_URL. */
function ollamaEmbeddingsFromSettings(): Extract<EmbeddingConfig, { kind: 'openai' }> {
  const dimensions = setting('embeddings.dimensions');
  return ollamaEmbeddingConfig({
    url: setting('embeddings.ollamaUrl'),
    model: setting('embeddings.ollamaModel'),
    ...(dimensions > 0 ? { dimensions } : {}),
    urlField: settingId('embeddings.ollamaUrl'),
  });
}

/**
 * The embeddings to open with, after the startup check when the provider is Ollama (the only
 * provider that is probed, and only when chosen: no silent network calls).
 */
export async function checkedEmbeddingsFromSettings(
  secrets: vscode.SecretStorage,
  fetchImpl: typeof fetch = fetch,
): Promise<{ config: EmbeddingConfig; check: EmbeddingStartupCheck | null }> {
  const config = await embeddingsFromSettings(secrets);
  if (setting('embeddings.provider') !== 'ollama' || config.kind !== 'openai') return { config, check: null };
  const origin = new URL(config.baseUrl ?? DEFAULT_OLLAMA_URL).origin;
  const checked = await checkedOllamaConfig(config, origin, config.model ?? DEFAULT_OLLAMA_EMBEDDING_MODEL, fetchImpl);
  return { config: checked.config, check: checked.check };
}

export async function runtimeConfigFromSettings(
  secrets: vscode.SecretStorage,
  dataDir: string,
  identity: { userId: string; scopeProjectId: string | undefined },
): Promise<RuntimeConfig> {
  const embeddings = await checkedEmbeddingsFromSettings(secrets);
  return {
    dataDir,
    backend: backendFor(await storageChoiceFromSettings(secrets), dataDir),
    embeddings: embeddings.config,
    ...(embeddings.check ? { embeddingCheck: embeddings.check } : {}),
    defaultUserId: identity.userId,
    ...(identity.scopeProjectId ? { defaultProjectId: identity.scopeProjectId } : {}),
    layerDefaults: layerDefaultsFromSettings(),
  };
}

const LAYER_SETTING: Record<keyof LayerDefaults, string> = {
  team_id: 'teamId',
  org_id: 'orgId',
  company_id: 'companyId',
  agent_id: 'agentId',
};

/** The shared layers this window opens; the in-editor MCP server refuses any other team, org or company. */
export function layerDefaultsFromSettings(): LayerDefaults {
  const entries: Array<[keyof LayerDefaults, string]> = [
    ['team_id', setting('layers.teamId').trim()],
    ['org_id', setting('layers.orgId').trim()],
    ['company_id', setting('layers.companyId').trim()],
    ['agent_id', setting('layers.agentId').trim()],
  ];
  return Object.fromEntries(
    entries
      .filter(([, value]) => value !== '')
      .map(([field, value]) => [field, requireId(value, settingId(`layers.${LAYER_SETTING[field]}`))]),
  );
}
