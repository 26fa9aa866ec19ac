/**
 * Local embeddings without a key: an Ollama server on this machine. Turned on only by
 * FML_EMBEDDING_PROVIDER=ollama (never probed otherwise: no silent network calls); at startup
 * this check asks the server which models it has and says what it found.
 */
import { MemoryError } from '../core/domain/errors.ts';
import type { EmbeddingStartupCheck } from '../core/ports/embeddingProvider.ts';

export const DEFAULT_OLLAMA_URL = 'http://localhost:11434';
export const DEFAULT_OLLAMA_EMBEDDING_MODEL = 'nomic-embed-text';
/** Name fragments of Ollama's embedding models; chat models cannot embed. */
const EMBEDDING_MODEL_HINTS = ['embed', 'bge', 'minilm', 'e5-', 'gte-', 'arctic-embed', 'paraphrase'];
const CHECK_TIMEOUT_MS = 2000;
/** Loading a model into memory for its first embedding takes seconds on a laptop. */
const EMBED_PROBE_TIMEOUT_MS = 30_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface OllamaCheck {
  reachable: boolean;
  /** Embedding models the server has, by name. */
  embeddingModels: string[];
  /** The model recall will use: the one asked for when present, else the first embedding model found; null when none embeds. */
  model: string | null;
  /** Length of the vector the model returned for a probe text; null when no model was tried or it failed. */
  dimensions: number | null;
  /** One line for the startup log. */
  message: string;
}

/** The server's origin, refused unless it is on this machine: the point is local embeddings. */
export function ollamaOrigin(url: string = DEFAULT_OLLAMA_URL, field = 'FML_OLLAMA_URL'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MemoryError('CONFIGURATION_ERROR', `${field} is not a URL: "${url}".`, { details: { field } });
  }
  if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `${field} must be on this machine (localhost, 127.0.0.1 or [::1]); got "${parsed.hostname}". For a remote server use an OpenAI-compatible provider with its base URL.`,
      { details: { field } },
    );
  }
  return parsed.origin;
}

/** The check as stats and the panel report it. */
export function startupCheckOf(check: OllamaCheck, at: Date): EmbeddingStartupCheck {
  return {
    provider: 'ollama',
    reachable: check.reachable,
    model: check.model,
    dimensions: check.dimensions,
    message: check.message,
    at: at.toISOString(),
  };
}

export async function checkOllama(
  origin: string,
  wanted: string,
  fetchImpl: typeof fetch = fetch,
): Promise<OllamaCheck> {
  let names: string[];
  try {
    const response = await fetchImpl(`${origin}/api/tags`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    if (!response.ok) return unreachable(origin, `it answered HTTP ${response.status}`);
    const body = (await response.json()) as { models?: Array<{ name?: unknown }> };
    names = (body.models ?? []).map((model) => model.name).filter((name): name is string => typeof name === 'string');
  } catch (error) {
    return unreachable(origin, error instanceof Error ? error.message : String(error));
  }
  const embeddingModels = names.filter((name) =>
    EMBEDDING_MODEL_HINTS.some((hint) => name.toLowerCase().includes(hint)),
  );
  const exact = names.find((name) => name === wanted || name === `${wanted}:latest`);
  const candidate = exact ?? embeddingModels[0] ?? null;
  if (candidate === null) {
    return {
      reachable: true,
      embeddingModels,
      model: null,
      dimensions: null,
      message: `Ollama at ${origin} has no embedding model (found: ${names.join(', ') || 'none'}); run "ollama pull ${wanted}". Recall stays full-text.`,
    };
  }
  // One probe embedding: proves the model embeds (a chat model named like one would not) and gives its vector size.
  const probe = await probeDimensions(origin, candidate, fetchImpl);
  if (typeof probe === 'string') {
    return {
      reachable: true,
      embeddingModels,
      model: null,
      dimensions: null,
      message: `Ollama at ${origin} has ${candidate} but it did not embed a probe text (${probe}). Recall stays full-text.`,
    };
  }
  const message = exact
    ? `Ollama at ${origin}: embedding with ${candidate} (${probe} dimensions).`
    : `Ollama at ${origin} has no "${wanted}"; embedding with ${candidate} (${probe} dimensions; embedding models found: ${embeddingModels.join(', ')}).`;
  return { reachable: true, embeddingModels, model: candidate, dimensions: probe, message };
}

/** The vector size of `model` from Ollama's native /api/embed, or why it could not embed. */
async function probeDimensions(origin: string, model: string, fetchImpl: typeof fetch): Promise<number | string> {
  try {
    const response = await fetchImpl(`${origin}/api/embed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, input: 'Firebolt Memory startup check' }),
      signal: AbortSignal.timeout(EMBED_PROBE_TIMEOUT_MS),
    });
    if (!response.ok) return `HTTP ${response.status}`;
    const body = (await response.json()) as { embeddings?: unknown };
    const vector = Array.isArray(body.embeddings) ? body.embeddings[0] : undefined;
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every((value) => typeof value === 'number'))
      return 'the answer held no vector';
    return vector.length;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function unreachable(origin: string, reason: string): OllamaCheck {
  return {
    reachable: false,
    embeddingModels: [],
    model: null,
    dimensions: null,
    message: `Ollama at ${origin} is not reachable (${reason}); recall stays full-text until it is.`,
  };
}
