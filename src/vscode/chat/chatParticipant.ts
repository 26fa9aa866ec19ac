import * as vscode from 'vscode';
import { handleMemoryChat } from '../../chat/memoryChat.ts';
import type { ChatAnswerModel, ChatOutput, MemoryCitation } from '../../chat/chatPorts.ts';
import { settingId } from '../../core/domain/settingIds.ts';
import { MEMORY_DOCUMENT_SCHEME, memoryDocumentLocation } from '../commands/memoryDocumentText.ts';
import { setting } from '../config/vscodeSettings.ts';
import { describeError, type Log } from '../log.ts';
import type { MemoryHost } from '../runtime/memoryHost.ts';
import { CHAT_PARTICIPANT_ID } from './chatIds.ts';

const MODEL_SETTING = 'extraction.useLanguageModel';
const JUSTIFICATION = 'Firebolt Memory answers your @memory question from your stored memories.';

/**
 * Registers `@memory` in the chat view (stable chat API). The turn's logic is memoryChat.ts;
 * this file only adapts the response stream, the request's model and the memory URIs.
 */
export function registerChatParticipant(
  context: vscode.ExtensionContext,
  host: MemoryHost,
  log: Log,
): vscode.Disposable {
  // Editors without a chat view (older forks) have no chat namespace: everything else still works.
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    log.info('This editor has no chat API; the @memory chat participant is not available.');
    return new vscode.Disposable(() => undefined);
  }
  const participant = vscode.chat.createChatParticipant(
    CHAT_PARTICIPANT_ID,
    async (request, _chat, stream, token): Promise<vscode.ChatResult> => {
      try {
        const { core, identity } = await host.ready();
        const outcome = await handleMemoryChat(
          request,
          {
            core,
            identity,
            // The same consent as extraction: with it off, no memory text is sent to a model.
            model: setting(MODEL_SETTING) ? requestModel(request.model, token) : null,
            modelSetting: settingId(MODEL_SETTING),
            isCancelled: () => token.isCancellationRequested,
          },
          streamOutput(stream),
        );
        if (outcome.error) log.warn(`@memory ${outcome.command}: ${outcome.error.code}: ${outcome.error.message}`);
        return { metadata: outcome };
      } catch (error) {
        log.error('@memory could not answer', error);
        return { errorDetails: { message: describeError(error) } };
      }
    },
  );
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'memory.svg');
  return participant;
}

export function memoryUri(memory: MemoryCitation): vscode.Uri {
  return vscode.Uri.from({ scheme: MEMORY_DOCUMENT_SCHEME, ...memoryDocumentLocation(memory) });
}

function streamOutput(stream: vscode.ChatResponseStream): ChatOutput {
  return {
    markdown: (text) => stream.markdown(text),
    progress: (text) => stream.progress(text),
    reference: (memory) => stream.reference(memoryUri(memory), new vscode.ThemeIcon('database')),
    anchor: (memory, title) => stream.anchor(memoryUri(memory), title),
    button: (button) => stream.button({ title: button.title, command: button.command, arguments: [button.memoryId] }),
  };
}

function requestModel(model: vscode.LanguageModelChat, token: vscode.CancellationToken): ChatAnswerModel {
  return {
    name: model.name,
    async *answer(prompt: string): AsyncIterable<string> {
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User(prompt)],
        { justification: JUSTIFICATION },
        token,
      );
      for await (const chunk of response.text) yield chunk;
    },
  };
}
