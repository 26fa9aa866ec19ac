import type * as vscode from 'vscode';
import type { LayerDefaults } from '../../core/coreDeps.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import { requireId } from '../../core/validation.ts';
import { backendConfigFromSettings } from '../../runtime/backendSelection.ts';
import type { BackendConfig, EmbeddingConfig, RuntimeConfig } from '../../runtime/runtimeConfig.ts';
import { setting } from '../config/vscodeSettings.ts';
import { SECRET_KEYS } from './secretKeys.ts';

export type StorageKind = 'embedded' | 'firebolt-core' | 'firebolt-cloud';

/** A storage choice before it becomes a runtime backend; what Configure Storage edits and validates. */
export type StorageChoice =
  | { kind: 'embedded' }
  | { kind: 'firebolt-core'; url: string; database: string }
  | { kind: 'firebolt-cloud'; account: string; engine: string; database: string; clientId: string; clientSecret: string };

export async function storageChoiceFromSettings(secrets: vscode.SecretStorage): Promise<StorageChoice> {
  const kind = setting('memory.storage.backend');
  switch (kind) {
    case 'embedded':
      return { kind };
    case 'firebolt-core':
      return { kind, url: setting('memory.firebolt.core.url'), database: setting('memory.firebolt.database') };
    case 'firebolt-cloud':
      return {
        kind,
        account: setting('memory.firebolt.cloud.account'),
        engine: setting('memory.firebolt.cloud.engine'),
        database: setting('memory.firebolt.database'),
        clientId: setting('memory.firebolt.cloud.clientId'),
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
      return backendConfigFromSettings({ backend: choice.kind, dataDir, coreUrl: choice.url, database: choice.database });
    case 'firebolt-cloud':
      return backendConfigFromSettings({ backend: choice.kind, dataDir, account: choice.account, engine: choice.engine, database: choice.database, clientId: choice.clientId, clientSecret: choice.clientSecret });
  }
}

export async function embeddingsFromSettings(secrets: vscode.SecretStorage): Promise<EmbeddingConfig> {
  if (setting('memory.embeddings.provider') === 'none') return { kind: 'none' };
  const apiKey = await secrets.get(SECRET_KEYS.embeddingApiKey);
  const baseUrl = setting('memory.embeddings.baseUrl').trim();
  // Local OpenAI-compatible servers (Ollama, LM Studio) accept any key.
  if (!apiKey && baseUrl === '') {
    throw new MemoryError('CONFIGURATION_ERROR', 'memory.embeddings.provider is "openai" but no API key is set. Run "Memory: Set Embedding API Key", or set memory.embeddings.baseUrl for a local server.');
  }
  const dimensions = setting('memory.embeddings.dimensions');
  return {
    kind: 'openai',
    apiKey: apiKey ?? 'not-needed',
    model: setting('memory.embeddings.model'),
    ...(baseUrl ? { baseUrl } : {}),
    ...(dimensions > 0 ? { dimensions } : {}),
  };
}

export async function runtimeConfigFromSettings(secrets: vscode.SecretStorage, dataDir: string, identity: { userId: string; scopeProjectId: string | undefined }): Promise<RuntimeConfig> {
  return {
    dataDir,
    backend: backendFor(await storageChoiceFromSettings(secrets), dataDir),
    embeddings: await embeddingsFromSettings(secrets),
    defaultUserId: identity.userId,
    ...(identity.scopeProjectId ? { defaultProjectId: identity.scopeProjectId } : {}),
    layerDefaults: layerDefaultsFromSettings(),
  };
}

/** The shared layers this window opens; the in-editor MCP server refuses any other team, org or company. */
export function layerDefaultsFromSettings(): LayerDefaults {
  const entries: Array<[keyof LayerDefaults, string]> = [
    ['team_id', setting('memory.layers.teamId').trim()],
    ['org_id', setting('memory.layers.orgId').trim()],
    ['company_id', setting('memory.layers.companyId').trim()],
    ['agent_id', setting('memory.layers.agentId').trim()],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== '').map(([field, value]) => [field, requireId(value, `memory.layers.${field}`)]));
}
