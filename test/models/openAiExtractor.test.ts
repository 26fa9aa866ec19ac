import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { extractorFromEnv } from '../../src/models/extractorFromEnv.ts';
import { OpenAiExtractor } from '../../src/models/openAiExtractor.ts';
import { parseExtraction } from '../../src/core/extraction/parseExtraction.ts';
import { RuleBasedExtractor } from '../../src/core/extraction/ruleBasedExtractor.ts';
import { type FakeChatServer, startFakeChatServer } from '../core/extraction/fakeChatServer.ts';

const GOOD = {
  memories: [
    {
      content: 'The team chose PostgreSQL for the event store.',
      category: 'episodic',
      subtype: 'decision',
      importance: 0.8,
      entities: ['package:pg'],
      is_temporal: false,
      fact: null,
      corrects: null,
    },
    {
      content: 'The staging database listens on port 5433.',
      category: 'semantic',
      subtype: 'environment',
      importance: 0.6,
      entities: [],
      is_temporal: false,
      fact: null,
      corrects: '5432',
    },
    {
      content: "The user's name is Jonas.",
      category: 'semantic',
      subtype: 'user',
      importance: 0.7,
      entities: [],
      is_temporal: false,
      fact: { category: 'identity', key: 'name', value: 'Jonas' },
    },
  ],
};

async function rejection(promise: Promise<unknown>): Promise<MemoryError> {
  const error = await promise.then(
    () => assert.fail('expected a rejection'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof MemoryError, String(error));
  return error;
}

describe('OpenAI-compatible extractor', () => {
  let server: FakeChatServer;
  let extractor: OpenAiExtractor;
  before(async () => {
    server = await startFakeChatServer([]);
    extractor = new OpenAiExtractor({ apiKey: 'test-key', model: 'tiny-model', baseUrl: server.baseUrl });
  });
  after(() => server.close());

  it('sends the prompt and returns validated memories', async () => {
    server.replies.splice(0, Infinity, { content: JSON.stringify(GOOD) });
    const memories = await extractor.extract({
      content: 'We chose Postgres. Actually staging is on 5433, not 5432. I am Jonas.',
      context: { source: 'message' },
    });
    assert.equal(extractor.name, 'openai:tiny-model');
    assert.deepEqual(
      memories.map((memory) => memory.subtype),
      ['decision', 'environment', 'user'],
    );
    assert.deepEqual(memories[1]?.correction, { replaces: '5432' });
    assert.deepEqual(memories[2]?.fact, { category: 'identity', key: 'name', value: 'Jonas' });
    const request = server.requests.at(-1);
    assert.equal(request?.model, 'tiny-model');
    assert.equal(request?.authorization, 'Bearer test-key');
    assert.deepEqual(request?.response_format, { type: 'json_object' });
    assert.equal(request?.messages[0]?.role, 'system');
    assert.match(request?.messages[1]?.content ?? '', /Source: message\nContent:\nWe chose Postgres/);
  });

  it('accepts an answer wrapped in a json code fence', async () => {
    server.replies.splice(0, Infinity, { content: '```json\n{"memories": []}\n```' });
    assert.deepEqual(await extractor.extract({ content: 'ok' }), []);
  });

  it('rejects malformed model output as a retryable PROVIDER_ERROR', async () => {
    const malformed = [
      'Sure! Here are the memories: ...',
      '{"memories": {"content": "x"}}',
      JSON.stringify({ memories: [{ ...GOOD.memories[0], subtype: 'workflow' }] }),
      JSON.stringify({ memories: [{ ...GOOD.memories[0], importance: 1.5 }] }),
      JSON.stringify({ memories: [{ ...GOOD.memories[0], entities: 'package:pg' }] }),
      JSON.stringify({ memories: [{ ...GOOD.memories[0], confidence: 0.9 }] }),
      JSON.stringify({ memories: [{ ...GOOD.memories[0], fact: { category: 'hobby', key: 'x', value: 'y' } }] }),
    ];
    for (const content of malformed) {
      server.replies.splice(0, Infinity, { content });
      const error = await rejection(extractor.extract({ content: 'anything' }));
      assert.equal(error.code, 'PROVIDER_ERROR', content);
      assert.equal(error.retryable, true);
      assert.match(error.message, /invalid answer/);
    }
  });

  it('maps HTTP errors to typed errors', async () => {
    for (const [status, code] of [
      [500, 'PROVIDER_ERROR'],
      [429, 'RATE_LIMITED'],
      [401, 'UNAUTHORIZED'],
    ] as const) {
      server.replies.splice(0, Infinity, { status });
      const error = await rejection(extractor.extract({ content: 'anything' }));
      assert.equal(error.code, code);
      assert.match(error.message, new RegExp(`HTTP ${status}`));
    }
  });

  it('reports an unreachable endpoint as PROVIDER_ERROR', async () => {
    const closed = await startFakeChatServer([]);
    await closed.close();
    const error = await rejection(
      new OpenAiExtractor({ apiKey: 'k', model: 'm', baseUrl: closed.baseUrl, timeoutMs: 2_000 }).extract({
        content: 'x',
      }),
    );
    assert.equal(error.code, 'PROVIDER_ERROR');
  });

  it('parses the strict schema directly', () => {
    assert.equal(parseExtraction(JSON.stringify(GOOD), 'test').length, 3);
    assert.throws(() => parseExtraction('[]', 'test'), /must be an object with a "memories" array/);
    const tooMany = JSON.stringify({ memories: Array.from({ length: 51 }, () => GOOD.memories[0]) });
    assert.throws(() => parseExtraction(tooMany, 'test'), /more than 50/);
  });
});

describe('extractor configuration from the environment', () => {
  it('defaults to rules and builds an OpenAI-compatible extractor when asked', () => {
    assert.ok(extractorFromEnv({}) instanceof RuleBasedExtractor);
    const openai = extractorFromEnv({
      FML_EXTRACTION_PROVIDER: 'openai',
      OPENAI_API_KEY: 'k',
      FML_EXTRACTION_MODEL: 'llama3.1',
    });
    assert.equal(openai.name, 'openai:llama3.1');
    assert.equal(
      extractorFromEnv({ FML_EXTRACTION_PROVIDER: 'openai', FML_EXTRACTION_BASE_URL: 'http://127.0.0.1:11434/v1' })
        .name,
      'openai:gpt-4o-mini',
    );
  });

  it('refuses a half-configured or unknown provider', () => {
    assert.throws(
      () => extractorFromEnv({ FML_EXTRACTION_PROVIDER: 'openai' }),
      (error: unknown) => MemoryError.is(error, 'CONFIGURATION_ERROR'),
    );
    assert.throws(
      () => extractorFromEnv({ FML_EXTRACTION_PROVIDER: 'anthropic' }),
      (error: unknown) => MemoryError.is(error, 'CONFIGURATION_ERROR'),
    );
  });
});
