import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { createVscodeLmEnricher } from '../../../src/vscode/extraction/vscodeLmEnricher.ts';
import type { VscodeLmApi } from '../../../src/vscode/extraction/vscodeLmChatModel.ts';

/** A stand-in for the `vscode` namespace with one Copilot model; records every prompt it is sent. */
function fakeApi(answer: string): { api: VscodeLmApi; prompts: string[][]; justifications: string[] } {
  const prompts: string[][] = [];
  const justifications: string[] = [];
  const model = {
    id: 'copilot-gpt-4o-mini',
    sendRequest: async (messages: Array<{ content: string }>, options: { justification: string }) => {
      prompts.push(messages.map((message) => message.content));
      justifications.push(options.justification);
      return {
        text: (async function* () {
          yield answer;
        })(),
      };
    },
  } as unknown as vscode.LanguageModelChat;
  const api = {
    lm: { selectChatModels: async () => [model] },
    LanguageModelChatMessage: {
      User: (content: string) => ({ content }) as unknown as vscode.LanguageModelChatMessage,
    },
    LanguageModelError: class extends Error {},
    CancellationTokenSource: class {
      token = {};
      cancel(): void {}
      dispose(): void {}
    },
  } as unknown as VscodeLmApi;
  return { api, prompts, justifications };
}

const settings = (values: Record<string, unknown>) => ({ get: <T>(key: string) => values[key] as T | undefined });
const INPUT = {
  content: 'Use pnpm, not npm, in this repository.',
  category: 'procedural',
  subtype: 'tool_usage',
  entities: ['package:pnpm'],
};

describe('VS Code language model enricher', () => {
  it('is not built without the extraction consent, or in an untrusted workspace', () => {
    const { api, prompts } = fakeApi('{"keys": []}');
    assert.equal(createVscodeLmEnricher(api, settings({}), true), null);
    assert.equal(createVscodeLmEnricher(api, settings({ 'extraction.useLanguageModel': false }), true), null);
    assert.equal(createVscodeLmEnricher(api, settings({ 'extraction.useLanguageModel': true }), false), null);
    assert.equal(prompts.length, 0);
  });

  it('with consent in a trusted workspace, asks the Copilot model and returns its validated keys', async () => {
    const { api, prompts, justifications } = fakeApi(
      '```json\n{"keys": ["package manager", "Package Manager", "which package manager do we use", ""]}\n```',
    );
    const enricher = createVscodeLmEnricher(
      api,
      settings({ 'extraction.useLanguageModel': true, 'extraction.languageModelFamily': 'gpt-4o-mini' }),
      true,
    );
    assert.equal(enricher?.name, 'vscode-lm:copilot/gpt-4o-mini');
    assert.deepEqual(await enricher!.enrich(INPUT), ['package manager', 'which package manager do we use']);
    assert.match(prompts[0][0], /search keys/);
    assert.match(prompts[0][1], /Kind: procedural\/tool_usage\nEntities: package:pnpm\nMemory:\nUse pnpm/);
    assert.match(justifications[0], /search keywords/);
  });

  it('refuses an answer that is not a keys object, as a retryable provider error', async () => {
    const enricher = createVscodeLmEnricher(
      fakeApi('Sure, here are some keywords: pnpm, npm').api,
      settings({ 'extraction.useLanguageModel': true }),
      true,
    );
    await assert.rejects(
      enricher!.enrich(INPUT),
      (error: unknown) => MemoryError.is(error, 'PROVIDER_ERROR') && (error as MemoryError).retryable,
    );
    const numbers = createVscodeLmEnricher(
      fakeApi('{"keys": [1, 2]}').api,
      settings({ 'extraction.useLanguageModel': true }),
      true,
    );
    await assert.rejects(numbers!.enrich(INPUT), (error: unknown) => MemoryError.is(error, 'PROVIDER_ERROR'));
  });
});
