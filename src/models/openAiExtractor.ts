import { OpenAiChatModel, type OpenAiChatModelOptions } from './openAiChatModel.ts';
import { ModelExtractor } from '../core/extraction/modelExtractor.ts';

export type OpenAiExtractorOptions = OpenAiChatModelOptions;

/** Extraction through an OpenAI-compatible chat model, answer validated by parseExtraction. */
export class OpenAiExtractor extends ModelExtractor {
  constructor(options: OpenAiExtractorOptions) {
    super(new OpenAiChatModel(options));
  }
}
