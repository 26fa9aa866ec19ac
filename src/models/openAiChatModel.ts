import type { ClientOptions, OpenAI } from 'openai';
import { MemoryError, type MemoryErrorCode } from '../core/domain/errors.ts';
import type { ChatModel, ChatRequest } from '../core/ports/chatModel.ts';

export interface OpenAiChatModelOptions {
  apiKey: string;
  model: string;
  /** Any OpenAI-compatible chat-completions endpoint (Ollama, LM Studio, vLLM, proxies); OpenAI when omitted. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** Chat through an OpenAI-compatible chat-completions endpoint. */
export class OpenAiChatModel implements ChatModel {
  readonly name: string;
  private readonly model: string;
  private readonly clientOptions: ClientOptions;
  private client: Promise<OpenAI> | undefined;

  constructor(options: OpenAiChatModelOptions) {
    this.model = options.model;
    this.name = `openai:${options.model}`;
    // No SDK retries: the background queue owns retry and backoff, so one policy governs every model.
    this.clientOptions = {
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? 30_000,
    };
  }

  /** The SDK is loaded at the first request, not at start-up (it loads Node's fetch implementation too). */
  private openClient(): Promise<OpenAI> {
    return (this.client ??= import('openai').then(({ OpenAI }) => new OpenAI(this.clientOptions)));
  }

  async complete(request: ChatRequest): Promise<string> {
    let text: string | null | undefined;
    try {
      const client = await this.openClient();
      const response = await client.chat.completions.create({
        model: this.model,
        temperature: 0,
        ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.user },
        ],
      });
      text = response.choices[0]?.message?.content;
    } catch (cause) {
      throw providerError(this.name, request.operation, cause, await import('openai'));
    }
    if (typeof text !== 'string') {
      throw new MemoryError('PROVIDER_ERROR', `Model ${this.name} returned no message content.`, {
        operation: request.operation,
        details: { model: this.name },
      });
    }
    return text;
  }
}

function providerError(name: string, operation: string, cause: unknown, sdk: typeof import('openai')): MemoryError {
  const status = cause instanceof sdk.APIError ? cause.status : undefined;
  const code: MemoryErrorCode =
    status === 401 || status === 403 ? 'UNAUTHORIZED' : status === 429 ? 'RATE_LIMITED' : 'PROVIDER_ERROR';
  const message = cause instanceof Error ? cause.message : String(cause);
  return new MemoryError(code, `Model ${name} failed to ${operation}${status ? ` (HTTP ${status})` : ''}: ${message}`, {
    cause,
    operation,
    details: { model: name, ...(status ? { status } : {}) },
  });
}
