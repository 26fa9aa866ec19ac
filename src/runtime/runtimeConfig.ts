import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LayerDefaults } from '../core/domain/layers.ts';
import { MemoryError } from '../core/domain/errors.ts';
import type { EmbeddingStartupCheck } from '../core/ports/embeddingProvider.ts';
import {
  checkOllama,
  DEFAULT_OLLAMA_EMBEDDING_MODEL,
  DEFAULT_OLLAMA_URL,
  ollamaOrigin,
  startupCheckOf,
} from './ollamaCheck.ts';

/**
 * Where memories live. A stable shape: the CLI builds it from flags and environment
 * (backendConfigFromEnv), the VS Code extension from its settings (backendConfigFromSettings).
 * The Firebolt kinds carry the client secret in memory only; nothing here logs it.
 */
export type BackendConfig =
  | { kind: 'sqlite'; dataDir: string }
  | { kind: 'firebolt-core'; url: string; database: string }
  | {
      kind: 'firebolt-cloud';
      clientId: string;
      clientSecret: string;
      account: string;
      database: string;
      engine: string;
      apiEndpoint?: string;
    };

export type BackendKind = BackendConfig['kind'];

export type EmbeddingConfig =
  | { kind: 'none' }
  | { kind: 'openai'; apiKey: string; baseUrl?: string; model?: string; dimensions?: number }
  | { kind: 'hashing-test'; dimensions: number };

export interface RuntimeConfig {
  dataDir: string;
  backend: BackendConfig;
  embeddings: EmbeddingConfig;
  defaultUserId?: string;
  defaultProjectId?: string;
  /** Team, org, company and agent the server acts in (seed 001 layers); a bound server opens no others. */
  layerDefaults?: LayerDefaults;
  /** Folder whose code memories are anchored to (--workspace); anchors are checked lazily at recall. */
  workspaceDir?: string;
  /** What the embedding startup check found (Ollama), for stats and the panel. */
  embeddingCheck?: EmbeddingStartupCheck;
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.FML_DATA_DIR && env.FML_DATA_DIR.trim() !== '' ? env.FML_DATA_DIR : join(homedir(), '.firebolt-memory');
}

/**
 * Embedding provider from the environment. Nothing configured means full-text only; the
 * hashing test provider is used only when asked for by name, never as a silent fallback.
 */
/** With FML_EMBEDDING_PROVIDER=ollama: the startup check, and the config with the model it found. */
export async function checkedEmbeddingConfig(
  env: NodeJS.ProcessEnv = process.env,
  fetchImpl: typeof fetch = fetch,
): Promise<{ config: EmbeddingConfig; notice: string | null; check: EmbeddingStartupCheck | null }> {
  const config = embeddingConfigFromEnv(env);
  if ((env.FML_EMBEDDING_PROVIDER ?? '').toLowerCase() !== 'ollama' || config.kind !== 'openai')
    return { config, notice: null, check: null };
  return checkedOllamaConfig(
    config,
    ollamaOrigin(env.FML_OLLAMA_URL),
    config.model ?? DEFAULT_OLLAMA_EMBEDDING_MODEL,
    fetchImpl,
  );
}

/**
 * Runs the Ollama startup check (CLI and editor alike) and gives the config to use: the model it
 * found, or none. An unreachable server or one without an embedding model leaves recall
 * full-text rather than failing every call.
 */
export async function checkedOllamaConfig(
  config: Extract<EmbeddingConfig, { kind: 'openai' }>,
  origin: string,
  wanted: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ config: EmbeddingConfig; notice: string; check: EmbeddingStartupCheck }> {
  const found = await checkOllama(origin, wanted, fetchImpl);
  const check = startupCheckOf(found, new Date());
  if (found.model === null) return { config: { kind: 'none' }, notice: found.message, check };
  return { config: { ...config, model: found.model }, notice: found.message, check };
}

export function embeddingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingConfig {
  const provider = (
    env.FML_EMBEDDING_PROVIDER ?? (env.FML_EMBEDDING_API_KEY || env.OPENAI_API_KEY ? 'openai' : 'none')
  ).toLowerCase();
  const dimensions = env.FML_EMBEDDING_DIMENSIONS ? Number(env.FML_EMBEDDING_DIMENSIONS) : undefined;
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 8 || dimensions > 8192)) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `FML_EMBEDDING_DIMENSIONS must be a whole number from 8 to 8192; got "${env.FML_EMBEDDING_DIMENSIONS}".`,
    );
  }
  switch (provider) {
    case 'none':
      return { kind: 'none' };
    case 'hashing-test':
      return { kind: 'hashing-test', dimensions: dimensions ?? 256 };
    case 'openai': {
      const apiKey = env.FML_EMBEDDING_API_KEY ?? env.OPENAI_API_KEY;
      // Local OpenAI-compatible servers (Ollama, LM Studio) accept any key.
      if (!apiKey && !env.FML_EMBEDDING_BASE_URL) {
        throw new MemoryError(
          'CONFIGURATION_ERROR',
          'FML_EMBEDDING_PROVIDER=openai needs FML_EMBEDDING_API_KEY (or OPENAI_API_KEY), or FML_EMBEDDING_BASE_URL for a local server.',
        );
      }
      return {
        kind: 'openai',
        apiKey: apiKey ?? 'not-needed',
        ...(env.FML_EMBEDDING_BASE_URL ? { baseUrl: env.FML_EMBEDDING_BASE_URL } : {}),
        ...(env.FML_EMBEDDING_MODEL ? { model: env.FML_EMBEDDING_MODEL } : {}),
        ...(dimensions ? { dimensions } : {}),
      };
    }
    case 'ollama':
      return ollamaEmbeddingConfig({
        url: env.FML_OLLAMA_URL,
        model: env.FML_EMBEDDING_MODEL,
        ...(dimensions ? { dimensions } : {}),
        urlField: 'FML_OLLAMA_URL',
      });
    default:
      throw new MemoryError(
        'CONFIGURATION_ERROR',
        `FML_EMBEDDING_PROVIDER must be none, openai, ollama or hashing-test; got "${provider}".`,
      );
  }
}

/**
 * Ollama's OpenAI-compatible endpoint on this machine, from the CLI's environment or the editor's
 * settings; the startup check (ollamaCheck.ts) then says what the server has. A URL that is not
 * on this machine is refused, naming `urlField`.
 */
export function ollamaEmbeddingConfig(options: {
  url?: string | undefined;
  model?: string | undefined;
  dimensions?: number;
  urlField: string;
}): Extract<EmbeddingConfig, { kind: 'openai' }> {
  const origin = ollamaOrigin(options.url?.trim() || DEFAULT_OLLAMA_URL, options.urlField);
  return {
    kind: 'openai',
    apiKey: 'not-needed',
    baseUrl: `${origin}/v1`,
    model: options.model?.trim() || DEFAULT_OLLAMA_EMBEDDING_MODEL,
    ...(options.dimensions ? { dimensions: options.dimensions } : {}),
  };
}
