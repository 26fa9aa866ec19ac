import type * as vscode from 'vscode';
import { MemoryError, type MemoryErrorCode } from '../../core/domain/errors.ts';
import type { ChatModel, ChatRequest } from '../../core/ports/chatModel.ts';

/** The parts of the `vscode` namespace this adapter uses; passing `vscode` itself satisfies it (and tests pass a fake). */
export interface VscodeLmApi {
  lm: { selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]> };
  LanguageModelChatMessage: { User(content: string): vscode.LanguageModelChatMessage };
  LanguageModelError: abstract new (...args: never[]) => vscode.LanguageModelError;
  CancellationTokenSource: new () => vscode.CancellationTokenSource;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** Chat through the VS Code Language Model API (Copilot models). */
export class VscodeLmChatModel implements ChatModel {
  readonly name: string;
  private readonly api: VscodeLmApi;
  private readonly selector: vscode.LanguageModelChatSelector;
  private readonly timeoutMs: number;
  /** The setting to point users at when no model answers. */
  private readonly familySetting: string;

  constructor(api: VscodeLmApi, options: { family?: string; timeoutMs?: number; familySetting: string }) {
    this.api = api;
    this.selector = { vendor: 'copilot', ...(options.family ? { family: options.family } : {}) };
    this.name = `vscode-lm:copilot${options.family ? `/${options.family}` : ''}`;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.familySetting = options.familySetting;
  }

  async complete(request: ChatRequest): Promise<string> {
    // Models come and go (sign-in, quota, extension updates), so they are looked up per call.
    const [model] = await this.api.lm.selectChatModels(this.selector);
    if (!model) {
      throw new MemoryError(
        'PROVIDER_ERROR',
        `No ${this.name} chat model is available; sign in to GitHub Copilot or change ${this.familySetting}.`,
        { operation: request.operation, details: { model: this.name } },
      );
    }
    const cancellation = new this.api.CancellationTokenSource();
    const timer = setTimeout(() => cancellation.cancel(), this.timeoutMs);
    let text = '';
    try {
      // The LM API has no system role; the instructions go first as a user message.
      const response = await model.sendRequest(
        [this.api.LanguageModelChatMessage.User(request.system), this.api.LanguageModelChatMessage.User(request.user)],
        { justification: request.justification },
        cancellation.token,
      );
      for await (const fragment of response.text) text += fragment;
    } catch (cause) {
      throw this.providerError(model, request.operation, cause);
    } finally {
      clearTimeout(timer);
      cancellation.dispose();
    }
    return text;
  }

  private providerError(model: vscode.LanguageModelChat, operation: string, cause: unknown): MemoryError {
    const lmCode = cause instanceof this.api.LanguageModelError ? cause.code : undefined;
    // NoPermissions: the user declined consent; retrying would only ask again.
    const code: MemoryErrorCode =
      lmCode === 'NoPermissions' ? 'UNAUTHORIZED' : lmCode === 'Blocked' ? 'RATE_LIMITED' : 'PROVIDER_ERROR';
    const message = cause instanceof Error ? cause.message : String(cause);
    return new MemoryError(
      code,
      `Model ${this.name} (${model.id}) failed to ${operation}${lmCode ? ` [${lmCode}]` : ''}: ${message}`,
      { cause, operation, details: { model: this.name, ...(lmCode ? { lm_code: lmCode } : {}) } },
    );
  }
}
