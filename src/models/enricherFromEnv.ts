import { MemoryError } from '../core/domain/errors.ts';
import { OpenAiChatModel } from './openAiChatModel.ts';
import { ModelKeyEnricher, type SearchKeyEnricher } from '../core/enrichment/searchKeyEnricher.ts';

const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/**
 * The enricher the environment asks for (CLI and background memory process), or null: off unless
 * FML_ENRICHMENT_PROVIDER=openai, because enrichment sends every stored memory's text to a model.
 * FML_ENRICHMENT_MODEL, FML_ENRICHMENT_BASE_URL (any OpenAI-compatible chat endpoint: Ollama,
 * LM Studio, a proxy), FML_ENRICHMENT_API_KEY (falls back to OPENAI_API_KEY). A half-configured
 * model is an error, never a silent "enrichment off".
 */
export function enricherFromEnv(env: Readonly<Record<string, string | undefined>>): SearchKeyEnricher | null {
  const provider = (env.FML_ENRICHMENT_PROVIDER ?? 'none').trim().toLowerCase();
  if (provider === 'none' || provider === '') return null;
  if (provider !== 'openai') {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `FML_ENRICHMENT_PROVIDER must be "none" or "openai", not "${provider}".`,
      { details: { field: 'FML_ENRICHMENT_PROVIDER' } },
    );
  }
  const baseUrl = env.FML_ENRICHMENT_BASE_URL?.trim() || undefined;
  if (baseUrl !== undefined && !URL.canParse(baseUrl)) {
    throw new MemoryError('CONFIGURATION_ERROR', `FML_ENRICHMENT_BASE_URL is not a URL: "${baseUrl}".`, {
      details: { field: 'FML_ENRICHMENT_BASE_URL' },
    });
  }
  const apiKey = env.FML_ENRICHMENT_API_KEY?.trim() || env.OPENAI_API_KEY?.trim() || undefined;
  if (!apiKey && !baseUrl) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      'FML_ENRICHMENT_PROVIDER=openai needs FML_ENRICHMENT_API_KEY or OPENAI_API_KEY (or FML_ENRICHMENT_BASE_URL for a local server that takes no key).',
      {
        details: { field: 'FML_ENRICHMENT_API_KEY' },
      },
    );
  }
  // Local OpenAI-compatible servers accept any key; the SDK insists on one.
  return new ModelKeyEnricher(
    new OpenAiChatModel({
      apiKey: apiKey ?? 'no-key',
      model: env.FML_ENRICHMENT_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
      ...(baseUrl ? { baseUrl } : {}),
    }),
  );
}
