import { MemoryError } from '../core/domain/errors.ts';
import type { MemoryExtractor } from '../core/extraction/extractor.ts';
import { OpenAiExtractor } from './openAiExtractor.ts';
import { RuleBasedExtractor } from '../core/extraction/ruleBasedExtractor.ts';

const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/**
 * The extractor the environment asks for (CLI and MCP server; the extension picks its own):
 * FML_EXTRACTION_PROVIDER = rules (default) | openai, FML_EXTRACTION_MODEL, FML_EXTRACTION_BASE_URL,
 * FML_EXTRACTION_API_KEY (falls back to OPENAI_API_KEY). A half-configured model is an error, not
 * a silent fallback to rules, so a typo never hides behind "extraction works".
 */
export function extractorFromEnv(env: Readonly<Record<string, string | undefined>>): MemoryExtractor {
  const provider = (env.FML_EXTRACTION_PROVIDER ?? 'rules').trim().toLowerCase();
  if (provider === 'rules' || provider === '') return new RuleBasedExtractor();
  if (provider !== 'openai') {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      `FML_EXTRACTION_PROVIDER must be "rules" or "openai", not "${provider}".`,
      { details: { field: 'FML_EXTRACTION_PROVIDER' } },
    );
  }
  const baseUrl = env.FML_EXTRACTION_BASE_URL?.trim() || undefined;
  const apiKey = env.FML_EXTRACTION_API_KEY?.trim() || env.OPENAI_API_KEY?.trim() || undefined;
  if (!apiKey && !baseUrl) {
    throw new MemoryError(
      'CONFIGURATION_ERROR',
      'FML_EXTRACTION_PROVIDER=openai needs FML_EXTRACTION_API_KEY or OPENAI_API_KEY (or FML_EXTRACTION_BASE_URL for a local server that takes no key).',
      {
        details: { field: 'FML_EXTRACTION_API_KEY' },
      },
    );
  }
  // Local OpenAI-compatible servers (Ollama, LM Studio) accept any key; the SDK insists on one.
  return new OpenAiExtractor({
    apiKey: apiKey ?? 'no-key',
    model: env.FML_EXTRACTION_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
    ...(baseUrl ? { baseUrl } : {}),
  });
}
