import type * as vscode from 'vscode';
import { MemoryError, type MemoryErrorCode } from '../../core/domain/errors.ts';
import { EXTRACTION_SYSTEM_PROMPT, extractionUserMessage } from '../../core/extraction/extractionPrompt.ts';
import type { ExtractedMemory, ExtractionInput, MemoryExtractor } from '../../core/extraction/extractor.ts';
import { parseExtraction } from '../../core/extraction/parseExtraction.ts';
import { settingId } from '../../shared/settingsSection.ts';

/** Opt-in setting (default false): sending conversation text to a Copilot model needs the user's say-so. */
export const USE_LANGUAGE_MODEL_SETTING = 'extraction.useLanguageModel';
/** Optional model family (e.g. gpt-4o-mini); empty picks the first Copilot chat model. */
export const LANGUAGE_MODEL_FAMILY_SETTING = 'extraction.languageModelFamily';

/** The parts of the `vscode` namespace this adapter uses; passing `vscode` itself satisfies it (and tests pass a fake). */
export interface VscodeLmApi {
  lm: { selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]> };
  LanguageModelChatMessage: { User(content: string): vscode.LanguageModelChatMessage };
  LanguageModelError: abstract new (...args: never[]) => vscode.LanguageModelError;
  CancellationTokenSource: new () => vscode.CancellationTokenSource;
}

export interface MemorySettings {
  get<T>(section: string): T | undefined;
}

const JUSTIFICATION = 'Firebolt Memory extracts decisions, preferences and facts from checkpointed working memory so agents can recall them later.';
const DEFAULT_TIMEOUT_MS = 60_000;

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
export class VscodeLmExtractor implements MemoryExtractor {
  readonly name: string;
  private readonly api: VscodeLmApi;
  private readonly selector: vscode.LanguageModelChatSelector;
  private readonly timeoutMs: number;

  constructor(api: VscodeLmApi, options: { family?: string; timeoutMs?: number } = {}) {
    this.api = api;
    this.selector = { vendor: 'copilot', ...(options.family ? { family: options.family } : {}) };
    this.name = `vscode-lm:copilot${options.family ? `/${options.family}` : ''}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async extract(input: ExtractionInput): Promise<ExtractedMemory[]> {
    // Models come and go (sign-in, quota, extension updates), so they are looked up per call.
    const [model] = await this.api.lm.selectChatModels(this.selector);
    if (!model) {
      throw new MemoryError('PROVIDER_ERROR', `No ${this.name} chat model is available; sign in to GitHub Copilot or change ${settingId(LANGUAGE_MODEL_FAMILY_SETTING)}.`, { operation: 'extract', details: { extractor: this.name } });
    }
    const cancellation = new this.api.CancellationTokenSource();
    const timer = setTimeout(() => cancellation.cancel(), this.timeoutMs);
    let text = '';
    try {
      // The LM API has no system role; the instructions go first as a user message.
      const response = await model.sendRequest(
        [this.api.LanguageModelChatMessage.User(EXTRACTION_SYSTEM_PROMPT), this.api.LanguageModelChatMessage.User(extractionUserMessage(input))],
        { justification: JUSTIFICATION },
        cancellation.token,
      );
      for await (const fragment of response.text) text += fragment;
    } catch (cause) {
      throw this.providerError(model, cause);
    } finally {
      clearTimeout(timer);
      cancellation.dispose();
    }
    return parseExtraction(text, `${this.name} (${model.id})`);
  }

  private providerError(model: vscode.LanguageModelChat, cause: unknown): MemoryError {
    const lmCode = cause instanceof this.api.LanguageModelError ? cause.code : undefined;
    // NoPermissions: the user declined consent; retrying would only ask again.
    const code: MemoryErrorCode = lmCode === 'NoPermissions' ? 'UNAUTHORIZED' : lmCode === 'Blocked' ? 'RATE_LIMITED' : 'PROVIDER_ERROR';
    const message = cause instanceof Error ? cause.message : String(cause);
    return new MemoryError(code, `Extractor ${this.name} (${model.id}) failed${lmCode ? ` [${lmCode}]` : ''}: ${message}`, { cause, operation: 'extract', details: { extractor: this.name, ...(lmCode ? { lm_code: lmCode } : {}) } });
  }
}
