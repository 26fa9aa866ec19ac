/**
 * One chat request to a language model, whatever serves it (an OpenAI-compatible endpoint, the
 * editor's Copilot models). Extraction and search-key enrichment both talk to models through
 * this, so they share one client per provider, one error mapping and one timeout policy.
 */
export interface ChatRequest {
  /** Instructions; sent as the system message where the provider has one. */
  system: string;
  user: string;
  /** Ask for a JSON object answer where the provider supports it. */
  json: boolean;
  /** Why the model is asked, shown by providers that ask the user for consent (VS Code). */
  justification: string;
  /** What the call is for, named in errors (`extract`, `enrich`). */
  operation: string;
}

export interface ChatModel {
  /** Stable name recorded with what the model produced (`openai:gpt-4o-mini`, `vscode-lm:copilot`). */
  readonly name: string;
  /**
   * The answer's text. Throws MemoryError: PROVIDER_ERROR or RATE_LIMITED (retryable),
   * UNAUTHORIZED (the key or the user's consent is missing; not retried).
   */
  complete(request: ChatRequest): Promise<string>;
}
