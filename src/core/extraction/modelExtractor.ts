import type { ChatModel } from '../ports/chatModel.ts';
import { EXTRACTION_SYSTEM_PROMPT, extractionUserMessage } from './extractionPrompt.ts';
import type { ExtractedMemory, ExtractionInput, MemoryExtractor } from './extractor.ts';
import { parseExtraction } from './parseExtraction.ts';

const JUSTIFICATION =
  'Firebolt Memory extracts decisions, preferences and facts from checkpointed working memory so agents can recall them later.';

/** Extraction by any chat model: one prompt, one strict parser, whoever serves the model. */
export class ModelExtractor implements MemoryExtractor {
  readonly name: string;
  /** The model itself, so background enrichment can use the same one (and the same consent). */
  readonly model: ChatModel;

  constructor(model: ChatModel) {
    this.model = model;
    this.name = model.name;
  }

  async extract(input: ExtractionInput): Promise<ExtractedMemory[]> {
    const text = await this.model.complete({
      system: EXTRACTION_SYSTEM_PROMPT,
      user: extractionUserMessage(input),
      json: true,
      justification: JUSTIFICATION,
      operation: 'extract',
    });
    return parseExtraction(text, this.name);
  }
}
