import type { ChatModel } from '../ports/chatModel.ts';
import { ENRICHMENT_SYSTEM_PROMPT, enrichmentUserMessage } from './enrichmentPrompt.ts';
import { parseSearchKeys } from './parseSearchKeys.ts';

/** What an enricher sees of a memory: its text and classification, nothing else of the store. */
export interface EnrichmentInput {
  content: string;
  category: string;
  subtype: string;
  entities: readonly string[];
}

/**
 * Adds search keys to a memory (issue #14 point 4): synonyms, categories and the questions the
 * memory answers, so recall finds it asked in other words.
 */
export interface SearchKeyEnricher {
  /** Recorded on every key it adds (`openai:gpt-4o-mini`, `vscode-lm:copilot`). */
  readonly name: string;
  /** Throws MemoryError like a ChatModel (PROVIDER_ERROR and RATE_LIMITED are retried). */
  enrich(input: EnrichmentInput): Promise<string[]>;
}

const JUSTIFICATION =
  'Firebolt Memory adds search keywords (synonyms, categories, questions answered) to stored memories so agents find them when asking in other words.';

/** Enrichment by any chat model: one prompt, one strict parser. */
export class ModelKeyEnricher implements SearchKeyEnricher {
  readonly name: string;
  private readonly model: ChatModel;

  constructor(model: ChatModel) {
    this.model = model;
    this.name = model.name;
  }

  async enrich(input: EnrichmentInput): Promise<string[]> {
    const text = await this.model.complete({
      system: ENRICHMENT_SYSTEM_PROMPT,
      user: enrichmentUserMessage(input),
      json: true,
      justification: JUSTIFICATION,
      operation: 'enrich',
    });
    return parseSearchKeys(text, this.name);
  }
}
