import { ModelKeyEnricher, type SearchKeyEnricher } from '../../core/enrichment/searchKeyEnricher.ts';
import { type VscodeLmApi, VscodeLmChatModel } from './vscodeLmChatModel.ts';
import { LANGUAGE_MODEL_FAMILY_SETTING, type MemorySettings, USE_LANGUAGE_MODEL_SETTING } from './vscodeLmExtractor.ts';
import { settingId } from '../../core/domain/settingIds.ts';

/**
 * The search-key enricher for the extension, or null. It asks the same consent as extraction (one
 * setting: the user allowed memory text to go to a Copilot model) and needs a trusted workspace:
 * in Restricted Mode nothing from the workspace is sent anywhere. The only way the extension
 * builds one, so no code path reaches Copilot for enrichment otherwise.
 */
export function createVscodeLmEnricher(
  api: VscodeLmApi,
  settings: MemorySettings,
  workspaceTrusted: boolean,
): SearchKeyEnricher | null {
  if (!workspaceTrusted || settings.get<boolean>(USE_LANGUAGE_MODEL_SETTING) !== true) return null;
  const family = settings.get<string>(LANGUAGE_MODEL_FAMILY_SETTING)?.trim();
  return new ModelKeyEnricher(
    new VscodeLmChatModel(api, {
      ...(family ? { family } : {}),
      familySetting: settingId(LANGUAGE_MODEL_FAMILY_SETTING),
    }),
  );
}
