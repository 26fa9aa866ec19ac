import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { OpenAiEmbeddings } from '../../src/embeddings/openAiEmbeddings.ts';

interface EmbeddingRequest {
  model: string;
  input: string[];
  dimensions?: number;
  encoding_format?: string;
}

/** A local server speaking the OpenAI embeddings API, as Ollama or LM Studio would. */
describe('OpenAiEmbeddings against an OpenAI-compatible server', () => {
  const requests: Array<{ body: EmbeddingRequest; authorization: string | undefined }> = [];
  let failNext = 0;
  let server: Server;
  let baseUrl: string;

  before(async () => {
    server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        const body = JSON.parse(raw) as EmbeddingRequest;
        requests.push({ body, authorization: request.headers.authorization });
        if (failNext > 0) {
          failNext--;
          response.writeHead(401, { 'Content-Type': 'application/json' });
          response.end(
            JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
          );
          return;
        }
        const dims = body.dimensions ?? 4;
        // Out of order on purpose: the client must place each vector by its index.
        const data = body.input
          .map((text, index) => ({
            object: 'embedding',
            index,
            embedding: Array.from({ length: dims }, (_, d) => text.length + d),
          }))
          .reverse();
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(
          JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the model, dimensions and key, and returns vectors in input order', async () => {
    const provider = new OpenAiEmbeddings({ apiKey: 'sk-local', baseUrl, model: 'nomic-embed-text', dimensions: 3 });
    assert.equal(provider.model, 'nomic-embed-text');
    assert.equal(provider.dimensions, 3);
    const vectors = await provider.embed(['a', 'bbb']);
    assert.deepEqual(
      vectors.map((vector) => [...vector]),
      [
        [1, 2, 3],
        [3, 4, 5],
      ],
    );
    const last = requests.at(-1)!;
    assert.deepEqual(last.body, {
      model: 'nomic-embed-text',
      input: ['a', 'bbb'],
      dimensions: 3,
      encoding_format: 'float',
    });
    assert.equal(last.authorization, 'Bearer sk-local');
  });

  it('batches large inputs and defaults to text-embedding-3-small at 1,536 dimensions', async () => {
    const provider = new OpenAiEmbeddings({ apiKey: 'sk-local', baseUrl });
    assert.equal(provider.model, 'text-embedding-3-small');
    assert.equal(provider.dimensions, 1536);
    const before = requests.length;
    const vectors = await provider.embed(Array.from({ length: 100 }, (_, index) => 'x'.repeat(index + 1)));
    assert.equal(vectors.length, 100);
    assert.equal(vectors[99][0], 100);
    assert.equal(requests.length - before, 2, '96 per request');
  });

  it('reports a refused key as EMBEDDING_FAILED with the server message', async () => {
    failNext = 2;
    const provider = new OpenAiEmbeddings({ apiKey: 'sk-wrong', baseUrl });
    await assert.rejects(provider.embed(['a']), (error: unknown) => {
      assert.ok(MemoryError.is(error, 'EMBEDDING_FAILED'));
      assert.match(error.message, /Incorrect API key/);
      return true;
    });
  });
});
