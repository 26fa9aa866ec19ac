import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { checkOllama, ollamaOrigin } from '../../src/runtime/ollamaCheck.ts';
import {
  checkedEmbeddingConfig,
  checkedOllamaConfig,
  embeddingConfigFromEnv,
  ollamaEmbeddingConfig,
} from '../../src/runtime/runtimeConfig.ts';
import { createEmbeddings } from '../../src/runtime/createRuntime.ts';

/** A local stub of Ollama's API: /api/tags lists models, /v1/embeddings answers as OpenAI's does. */
describe('Ollama startup check (local stub server)', () => {
  let server: Server;
  let origin: string;
  let models: string[] = [];
  let failEmbed = false;
  const requests: string[] = [];

  before(async () => {
    server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      if (request.url === '/api/tags') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ models: models.map((name) => ({ name })) }));
        return;
      }
      if (request.url === '/api/embed') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const { model } = JSON.parse(body) as { model: string };
          if (failEmbed) {
            response.statusCode = 500;
            response.end(JSON.stringify({ error: `${model} does not support embeddings` }));
            return;
          }
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ model, embeddings: [[0.6, 0.8, 0]] }));
        });
        return;
      }
      if (request.url === '/v1/embeddings') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const { input, model } = JSON.parse(body) as { input: string | string[]; model: string };
          const inputs = Array.isArray(input) ? input : [input];
          response.setHeader('content-type', 'application/json');
          response.end(
            JSON.stringify({
              object: 'list',
              model,
              data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.6, 0.8, 0] })),
              usage: { prompt_tokens: 1, total_tokens: 1 },
            }),
          );
        });
        return;
      }
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finds the embedding model asked for and says so', async () => {
    models = ['llama3:8b', 'nomic-embed-text:latest'];
    const check = await checkOllama(origin, 'nomic-embed-text');
    assert.equal(check.reachable, true);
    assert.equal(check.model, 'nomic-embed-text:latest');
    assert.deepEqual(check.embeddingModels, ['nomic-embed-text:latest']);
    assert.equal(check.dimensions, 3);
    assert.match(check.message, /embedding with nomic-embed-text:latest \(3 dimensions\)/);
  });

  it('says so when the model it found cannot embed, and stays full-text', async () => {
    models = ['nomic-embed-text:latest'];
    failEmbed = true;
    try {
      const check = await checkOllama(origin, 'nomic-embed-text');
      assert.equal(check.reachable, true);
      assert.equal(check.model, null);
      assert.equal(check.dimensions, null);
      assert.match(check.message, /did not embed a probe text \(HTTP 500\)/);
      const { config, check: reported } = await checkedEmbeddingConfig({
        FML_EMBEDDING_PROVIDER: 'ollama',
        FML_OLLAMA_URL: origin,
      });
      assert.deepEqual(config, { kind: 'none' });
      assert.equal(reported?.reachable, true);
      assert.equal(reported?.model, null);
    } finally {
      failEmbed = false;
    }
  });

  it('falls back to another embedding model it has, and never to a chat model', async () => {
    models = ['llama3:8b', 'mxbai-embed-large:latest'];
    assert.equal((await checkOllama(origin, 'nomic-embed-text')).model, 'mxbai-embed-large:latest');
    models = ['llama3:8b'];
    const none = await checkOllama(origin, 'nomic-embed-text');
    assert.equal(none.model, null);
    assert.match(none.message, /ollama pull nomic-embed-text/);
  });

  it('reports a server that is not there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const check = await checkOllama(`http://127.0.0.1:${port}`, 'nomic-embed-text');
    assert.equal(check.reachable, false);
    assert.match(check.message, /not reachable/);
  });

  it('is turned on by one setting, checked at startup, and embeds through the local server', async () => {
    models = ['nomic-embed-text:latest'];
    requests.length = 0;
    const env = { FML_EMBEDDING_PROVIDER: 'ollama', FML_OLLAMA_URL: origin };
    const { config, notice, check } = await checkedEmbeddingConfig(env);
    assert.match(notice ?? '', /embedding with nomic-embed-text:latest/);
    assert.deepEqual(
      { ...check, at: undefined },
      {
        provider: 'ollama',
        reachable: true,
        model: 'nomic-embed-text:latest',
        dimensions: 3,
        message: notice,
        at: undefined,
      },
    );
    assert.deepEqual(config, {
      kind: 'openai',
      apiKey: 'not-needed',
      baseUrl: `${origin}/v1`,
      model: 'nomic-embed-text:latest',
    });
    const provider = createEmbeddings(config)!;
    const [vector] = await provider.embed(['hello']);
    assert.deepEqual(
      [...vector].map((value) => Math.round(value * 10) / 10),
      [0.6, 0.8, 0],
    );
    assert.deepEqual(requests, ['GET /api/tags', 'POST /api/embed', 'POST /v1/embeddings']);
  });

  it('stays full-text when the server has no embedding model, and makes no call unless turned on', async () => {
    models = ['llama3:8b'];
    const { config } = await checkedEmbeddingConfig({ FML_EMBEDDING_PROVIDER: 'ollama', FML_OLLAMA_URL: origin });
    assert.deepEqual(config, { kind: 'none' });
    requests.length = 0;
    const off = await checkedEmbeddingConfig({});
    assert.deepEqual(off, { config: { kind: 'none' }, notice: null, check: null });
    assert.deepEqual(requests, []);
  });

  it("maps the editor's Ollama settings like the CLI's environment, and checks the server they name", async () => {
    models = ['all-minilm:latest'];
    requests.length = 0;
    const fromSettings = ollamaEmbeddingConfig({
      url: origin,
      model: 'all-minilm',
      urlField: 'memory.embeddings.ollamaUrl',
    });
    assert.deepEqual(fromSettings, {
      kind: 'openai',
      apiKey: 'not-needed',
      baseUrl: `${origin}/v1`,
      model: 'all-minilm',
    });
    assert.deepEqual(
      ollamaEmbeddingConfig({ url: '', model: ' ', urlField: 'memory.embeddings.ollamaUrl' }).baseUrl,
      'http://localhost:11434/v1',
    );
    assert.equal(ollamaEmbeddingConfig({ url: '', model: '', urlField: 'x' }).model, 'nomic-embed-text');
    const checked = await checkedOllamaConfig(fromSettings, origin, 'all-minilm');
    assert.equal(checked.check.model, 'all-minilm:latest');
    assert.equal(checked.check.dimensions, 3);
    assert.deepEqual(requests, ['GET /api/tags', 'POST /api/embed']);
    assert.throws(
      () => ollamaEmbeddingConfig({ url: 'http://192.168.1.9:11434', urlField: 'memory.embeddings.ollamaUrl' }),
      /memory\.embeddings\.ollamaUrl must be on this machine/,
    );
  });

  it('refuses an Ollama URL that is not on this machine', () => {
    assert.equal(ollamaOrigin('http://localhost:11434'), 'http://localhost:11434');
    assert.throws(() => ollamaOrigin('http://10.1.2.3:11434'), /must be on this machine/);
    assert.throws(
      () => embeddingConfigFromEnv({ FML_EMBEDDING_PROVIDER: 'ollama', FML_OLLAMA_URL: 'http://example.com' }),
      /must be on this machine/,
    );
  });
});
