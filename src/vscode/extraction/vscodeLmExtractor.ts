import { ModelExtractor } from '../../core/extraction/modelExtractor.ts';
import { settingId } from '../../core/domain/settingIds.ts';
import { type VscodeLmApi, VscodeLmChatModel } from './vscodeLmChatModel.ts';

export type { VscodeLmApi } from './vscodeLmChatModel.ts';

/** Opt-in setting (default false): sending conversation text to a Copilot model needs the user's say-so. */
export const USE_LANGUAGE_MODEL_SETTING = 'extraction.useLanguageModel';
/** Optional model family (e.g. gpt-4o-mini); empty picks the first Copilot chat model. */
export const LANGUAGE_MODEL_FAMILY_SETTING = 'extraction.languageModelFamily';

export interface MemorySettings {
  get<T>(section: string): T | undefined;
}

/**
 * The extractor for the extension when the user allows it, else null: the only way the extension
 * should build one, so no code path reaches Copilot with the setting off.
 */
export function createVscodeLmExtractor(api: VscodeLmApi, settings: MemorySettings): VscodeLmExtractor | null {
  if (settings.get<boolean>(USE_LANGUAGE_MODEL_SETTING) !== true) return null;
  const family = settings.get<string>(LANGUAGE_MODEL_FAMILY_SETTING)?.trim();
  return new VscodeLmExtractor(api, family ? { family } : {});
}

/** Extraction through the VS Code Language Model API (Copilot models), answer validated like every model's. */
export class VscodeLmExtractor extends ModelExtractor {
  constructor(api: VscodeLmApi, options: { family?: string; timeoutMs?: number } = {}) {
    super(new VscodeLmChatModel(api, { ...options, familySetting: settingId(LANGUAGE_MODEL_FAMILY_SETTING) }));
  }
}
