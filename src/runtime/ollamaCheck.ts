/**
 * Local embeddings without a key: an Ollama server on this machine. Turned on only by
 * FML_EMBEDDING_PROVIDER=ollama (never probed otherwise: no silent network calls); at startup
 * this check asks the server which models it has and says what it found.
 */
import { MemoryError } from '../core/domain/errors.ts';

export const DEFAULT_OLLAMA_URL = 'http://localhost:11434';
export const DEFAULT_OLLAMA_EMBEDDING_MODEL = 'nomic-embed-text';
/** Name fragments of Ollama's embedding models; chat models cannot embed. */
const EMBEDDING_MODEL_HINTS = ['embed', 'bge', 'minilm', 'e5-', 'gte-', 'arctic-embed', 'paraphrase'];
const CHECK_TIMEOUT_MS = 2000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface OllamaCheck {
  reachable: boolean;
  /** Embedding models the server has, by name. */
  embeddingModels: string[];
  /** The model recall will use: the one asked for when present, else the first embedding model found, else null. */
  model: string | null;
  /** One line for the startup log. */
  message: string;
}

/** The server's origin, refused unless it is on this machine: the point is local embeddings. */
export function ollamaOrigin(url: string = DEFAULT_OLLAMA_URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MemoryError('CONFIGURATION_ERROR', `FML_OLLAMA_URL is not a URL: "${url}".`);
  }
  if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new MemoryError('CONFIGURATION_ERROR', `FML_OLLAMA_URL must be on this machine (localhost, 127.0.0.1 or [::1]); got "${parsed.hostname}". For a remote server use FML_EMBEDDING_PROVIDER=openai with FML_EMBEDDING_BASE_URL.`);
  }
  return parsed.origin;
}

export async function checkOllama(origin: string, wanted: string, fetchImpl: typeof fetch = fetch): Promise<OllamaCheck> {
  let names: string[];
  try {
    const response = await fetchImpl(`${origin}/api/tags`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    if (!response.ok) return unreachable(origin, `it answered HTTP ${response.status}`);
    const body = (await response.json()) as { models?: Array<{ name?: unknown }> };
    names = (body.models ?? []).map((model) => model.name).filter((name): name is string => typeof name === 'string');
  } catch (error) {
    return unreachable(origin, error instanceof Error ? error.message : String(error));
  }
  const embeddingModels = names.filter((name) => EMBEDDING_MODEL_HINTS.some((hint) => name.toLowerCase().includes(hint)));
  const exact = names.find((name) => name === wanted || name === `${wanted}:latest`);
  const model = exact ?? embeddingModels[0] ?? null;
  const message =
    model === null
      ? `Ollama at ${origin} has no embedding model (found: ${names.join(', ') || 'none'}); run "ollama pull ${wanted}". Recall stays full-text.`
      : exact
        ? `Ollama at ${origin}: embedding with ${model}.`
        : `Ollama at ${origin} has no "${wanted}"; embedding with ${model} (embedding models found: ${embeddingModels.join(', ')}).`;
  return { reachable: true, embeddingModels, model, message };
}

function unreachable(origin: string, reason: string): OllamaCheck {
  return { reachable: false, embeddingModels: [], model: null, message: `Ollama at ${origin} is not reachable (${reason}); recall stays full-text until it is.` };
}
