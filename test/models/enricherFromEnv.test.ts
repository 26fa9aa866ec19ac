import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { enricherFromEnv } from '../../src/models/enricherFromEnv.ts';

describe('enrichment configuration from the environment', () => {
  it('is off unless asked for by name, even with an OpenAI key present', () => {
    assert.equal(enricherFromEnv({}), null);
    assert.equal(enricherFromEnv({ OPENAI_API_KEY: 'k', FML_EXTRACTION_PROVIDER: 'openai' }), null);
  });

  it('builds an OpenAI-compatible enricher named after its model', () => {
    assert.equal(
      enricherFromEnv({ FML_ENRICHMENT_PROVIDER: 'openai', OPENAI_API_KEY: 'k' })?.name,
      'openai:gpt-4o-mini',
    );
    assert.equal(
      enricherFromEnv({
        FML_ENRICHMENT_PROVIDER: 'OpenAI',
        FML_ENRICHMENT_BASE_URL: 'http://127.0.0.1:11434/v1',
        FML_ENRICHMENT_MODEL: 'llama3.2',
      })?.name,
      'openai:llama3.2',
    );
  });

  it('refuses a half-configured or unknown provider with a CONFIGURATION_ERROR naming the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ FML_ENRICHMENT_PROVIDER: 'anthropic' }, 'FML_ENRICHMENT_PROVIDER'],
      [{ FML_ENRICHMENT_PROVIDER: 'openai' }, 'FML_ENRICHMENT_API_KEY'],
      [{ FML_ENRICHMENT_PROVIDER: 'openai', FML_ENRICHMENT_BASE_URL: 'not a url' }, 'FML_ENRICHMENT_BASE_URL'],
    ];
    for (const [env, field] of cases) {
      assert.throws(
        () => enricherFromEnv(env),
        (error: unknown) =>
          MemoryError.is(error, 'CONFIGURATION_ERROR') && (error as MemoryError).details?.field === field,
        JSON.stringify(env),
      );
    }
  });
});
