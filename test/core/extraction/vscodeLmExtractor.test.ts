import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { type VscodeLmApi, createVscodeLmExtractor } from '../../../src/vscode/extraction/vscodeLmExtractor.ts';

class FakeLmError extends Error {
  readonly code: string;
  constructor(code: string) {
    super(`lm ${code}`);
    this.code = code;
  }
}

/** A stand-in for the `vscode` namespace: one Copilot model whose answer (or failure) the test sets. */
function fakeApi(answer: () => string, models = 1): { api: VscodeLmApi; prompts: string[][]; selectors: unknown[] } {
  const prompts: string[][] = [];
  const selectors: unknown[] = [];
  const model = {
    id: 'copilot-gpt-4o-mini',
    sendRequest: async (messages: Array<{ content: string }>) => {
      prompts.push(messages.map((message) => message.content));
      const text = answer();
      return {
        text: (async function* () {
          yield text.slice(0, 5);
          yield text.slice(5);
        })(),
      };
    },
  } as unknown as vscode.LanguageModelChat;
  const api = {
    lm: { selectChatModels: async (selector?: unknown) => (selectors.push(selector), models > 0 ? [model] : []) },
    LanguageModelChatMessage: {
      User: (content: string) => ({ content }) as unknown as vscode.LanguageModelChatMessage,
    },
    LanguageModelError: FakeLmError,
    CancellationTokenSource: class {
      token = {};
      cancel(): void {}
      dispose(): void {}
    },
  } as unknown as VscodeLmApi;
  return { api, prompts, selectors };
}

const settings = (values: Record<string, unknown>) => ({ get: <T>(key: string) => values[key] as T | undefined });
const ANSWER = JSON.stringify({
  memories: [
    {
      content: 'Use pnpm, not npm.',
      category: 'procedural',
      subtype: 'tool_usage',
      importance: 0.7,
      entities: [],
      is_temporal: false,
      fact: null,
      corrects: null,
    },
  ],
});

describe('VS Code language model extractor', () => {
  it('is only built when the user allows it', () => {
    const { api } = fakeApi(() => ANSWER);
    assert.equal(createVscodeLmExtractor(api, settings({})), null);
    assert.equal(createVscodeLmExtractor(api, settings({ 'extraction.useLanguageModel': false })), null);
    assert.equal(
      createVscodeLmExtractor(api, settings({ 'extraction.useLanguageModel': true }))?.name,
      'vscode-lm:copilot',
    );
  });

  it('asks a Copilot model and validates its streamed answer', async () => {
    const { api, prompts, selectors } = fakeApi(() => ANSWER);
    const extractor = createVscodeLmExtractor(
      api,
      settings({ 'extraction.useLanguageModel': true, 'extraction.languageModelFamily': 'gpt-4o-mini' }),
    );
    const memories = await extractor?.extract({ content: 'We use pnpm here, not npm.' });
    assert.deepEqual(
      memories?.map((memory) => memory.subtype),
      ['tool_usage'],
    );
    assert.deepEqual(selectors, [{ vendor: 'copilot', family: 'gpt-4o-mini' }]);
    assert.match(prompts[0]?.[0] ?? '', /Return ONLY a JSON object/);
    assert.match(prompts[0]?.[1] ?? '', /We use pnpm here, not npm\./);
  });

  it('reports a missing model, declined consent and malformed answers as typed errors', async () => {
    const none = createVscodeLmExtractor(
      fakeApi(() => ANSWER, 0).api,
      settings({ 'extraction.useLanguageModel': true }),
    );
    await assert.rejects(
      none?.extract({ content: 'x' }) ?? Promise.resolve(),
      (error: unknown) =>
        MemoryError.is(error, 'PROVIDER_ERROR') && /No vscode-lm:copilot chat model/.test(error.message),
    );
    const declined = createVscodeLmExtractor(
      fakeApi(() => {
        throw new FakeLmError('NoPermissions');
      }).api,
      settings({ 'extraction.useLanguageModel': true }),
    );
    await assert.rejects(
      declined?.extract({ content: 'x' }) ?? Promise.resolve(),
      (error: unknown) => MemoryError.is(error, 'UNAUTHORIZED') && !error.retryable,
    );
    const rambling = createVscodeLmExtractor(
      fakeApi(() => 'Here you go!').api,
      settings({ 'extraction.useLanguageModel': true }),
    );
    await assert.rejects(
      rambling?.extract({ content: 'x' }) ?? Promise.resolve(),
      (error: unknown) => MemoryError.is(error, 'PROVIDER_ERROR') && /invalid answer/.test(error.message),
    );
  });
});
