import OpenAI from 'openai';
import { MemoryError, type MemoryErrorCode } from '../domain/errors.ts';
import { EXTRACTION_SYSTEM_PROMPT, extractionUserMessage } from './extractionPrompt.ts';
import type { ExtractedMemory, ExtractionInput, MemoryExtractor } from './extractor.ts';
import { parseExtraction } from './parseExtraction.ts';

export interface OpenAiExtractorOptions {
  apiKey: string;
  model: string;
  /** Any OpenAI-compatible chat-completions endpoint (Ollama, LM Studio, vLLM, proxies); OpenAI when omitted. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** Extraction through an OpenAI-compatible chat model, answer validated by parseExtraction. */
export class OpenAiExtractor implements MemoryExtractor {
  readonly name: string;
  private readonly model: string;
  private readonly client: OpenAI;

  constructor(options: OpenAiExtractorOptions) {
    this.model = options.model;
    this.name = `openai:${options.model}`;
    // No SDK retries: the ExtractionQueue owns retry and backoff, so one policy governs every extractor.
    this.client = new OpenAI({ apiKey: options.apiKey, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}), maxRetries: 0, timeout: options.timeoutMs ?? 30_000 });
  }

  async extract(input: ExtractionInput): Promise<ExtractedMemory[]> {
    let text: string | null | undefined;
    try {
      const response = await this.client.chat.completions.create({
        model: this.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: EXTRACTION_SYSTEM_PROMPT },
          { role: 'user', content: extractionUserMessage(input) },
        ],
      });
      text = response.choices[0]?.message?.content;
    } catch (cause) {
      throw providerError(this.name, cause);
    }
    if (typeof text !== 'string') {
      throw new MemoryError('PROVIDER_ERROR', `Extractor ${this.name} returned no message content.`, { operation: 'extract', details: { extractor: this.name } });
    }
    return parseExtraction(text, this.name);
  }
}

function providerError(name: string, cause: unknown): MemoryError {
  const status = cause instanceof OpenAI.APIError ? cause.status : undefined;
  const code: MemoryErrorCode = status === 401 || status === 403 ? 'UNAUTHORIZED' : status === 429 ? 'RATE_LIMITED' : 'PROVIDER_ERROR';
  const message = cause instanceof Error ? cause.message : String(cause);
  return new MemoryError(code, `Extractor ${name} failed${status ? ` (HTTP ${status})` : ''}: ${message}`, { cause, operation: 'extract', details: { extractor: name, ...(status ? { status } : {}) } });
}
