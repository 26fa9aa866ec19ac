import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import type { ExtractedMemory, ExtractionInput, MemoryExtractor } from '../../../src/core/extraction/extractor.ts';
import { EXTRACTION_PENDING_TAG } from '../../../src/core/extraction/pendingExtraction.ts';
import { RuleBasedExtractor } from '../../../src/core/extraction/ruleBasedExtractor.ts';
import type { MemoryCore } from '../../../src/core/memoryCore.ts';
import { type TestCore, createTestCore } from '../../support/testCore.ts';

const USER = 'user_extract';
const SESSION = 'sess_extract';

/** Fails the first `failures` calls with `error`, then extracts by rules. */
class FlakyExtractor implements MemoryExtractor {
  readonly name = 'flaky';
  calls = 0;
  private readonly failures: number;
  private readonly error: () => Error;
  constructor(failures: number, error: () => Error = () => new MemoryError('PROVIDER_ERROR', 'model overloaded')) {
    this.failures = failures;
    this.error = error;
  }
  async extract(input: ExtractionInput): Promise<ExtractedMemory[]> {
    this.calls++;
    if (this.calls <= this.failures) throw this.error();
    return new RuleBasedExtractor().extract(input);
  }
}

async function checkpoint(core: MemoryCore, contents: readonly string[]): Promise<string[]> {
  await core.initSession({ user_id: USER, session_id: SESSION });
  for (const content of contents)
    await core.addToWorkingMemory({ session_id: SESSION, user_id: USER, content, content_type: 'message' });
  const result = await core.checkpointWorkingMemory({ session_id: SESSION, user_id: USER, force: true });
  return result.memory_ids;
}

async function pending(core: MemoryCore): Promise<string[]> {
  const { items } = await core.listMemories({
    filter: { user_id: USER, tags: [EXTRACTION_PENDING_TAG] },
    sort: 'created',
    offset: 0,
    limit: 50,
  });
  return items.map((memory) => memory.memory_id);
}

const MESSAGE =
  'We decided to use PostgreSQL 15 for the event store. Use pnpm instead of npm in this repository. Never push directly to main.';

describe('extraction queue', () => {
  let test: TestCore;
  beforeEach(async () => {
    test = await createTestCore();
  });
  afterEach(() => test.cleanup());

  it('leaves promotion untouched while no queue runs', async () => {
    const [id] = await checkpoint(test.core, [MESSAGE]);
    const memory = await test.core.getMemory(USER, id as string);
    assert.equal(memory.tags.includes(EXTRACTION_PENDING_TAG), false);
    assert.equal(memory.metadata.extraction, undefined);
  });

  it('stores raw content first, then replaces it with extracted memories off the request path', async () => {
    const queue = await test.core.startExtraction(new RuleBasedExtractor(), { baseDelayMs: 1 });
    const [rawId] = await checkpoint(test.core, [MESSAGE]);
    const raw = await test.core.getMemory(USER, rawId as string);
    // The tool's immediate result is the synchronous rule-based classification, as before.
    assert.equal(raw.content, MESSAGE);
    assert.equal(`${raw.memory_category}.${raw.memory_subtype}`, 'preference.boundaries');
    assert.equal(raw.metadata.extraction, 'pending');

    await queue.drain();
    assert.deepEqual(await pending(test.core), []);
    const { items } = await test.core.listMemories({
      filter: { user_id: USER },
      sort: 'created',
      offset: 0,
      limit: 50,
    });
    const extracted = items.filter((memory) => memory.source_type === 'extraction');
    assert.deepEqual(extracted.map((memory) => `${memory.memory_category}.${memory.memory_subtype}`).sort(), [
      'episodic.decision',
      'preference.boundaries',
      'procedural.tool_usage',
    ]);
    assert.ok(
      extracted.every(
        (memory) =>
          memory.metadata.extracted_from === rawId &&
          memory.metadata.extractor === 'rules' &&
          memory.source_session === SESSION,
      ),
    );
    // The pnpm sentence also states a structured fact.
    assert.ok(
      items.some((memory) => (memory.metadata.fact as { key?: string } | undefined)?.key === 'package_manager'),
    );
    const settled = await test.core.getMemory(USER, rawId as string);
    assert.ok(settled.deleted_at, 'the split raw memory goes to the trash');
    assert.equal(settled.metadata.extraction, 'replaced');
    assert.equal((settled.metadata.extracted_into as string[]).length, 4);
    assert.deepEqual(settled.tags, []);
    const stats = (await test.core.stats(USER)).extraction;
    assert.deepEqual([stats?.succeeded, stats?.failed, stats?.raw_replaced, stats?.extractor], [1, 0, 1, 'rules']);
  });

  it('reclassifies a raw memory that is itself one extracted memory instead of duplicating it', async () => {
    const queue = await test.core.startExtraction({
      name: 'fixed',
      extract: async (input) => [
        {
          content: input.content,
          category: 'semantic',
          subtype: 'project',
          importance: 0.9,
          entities: ['package:fastapi'],
          is_temporal: false,
        },
      ],
    });
    const [rawId] = await checkpoint(test.core, [
      'The project backend is FastAPI talking to a Postgres database on the shared cluster',
    ]);
    await queue.drain();
    const settled = await test.core.getMemory(USER, rawId as string);
    assert.deepEqual(
      [
        settled.deleted_at,
        settled.memory_category,
        settled.memory_subtype,
        settled.importance,
        settled.metadata.extraction,
      ],
      [null, 'semantic', 'project', 0.9, 'done'],
    );
    assert.ok(settled.entities.includes('package:fastapi'));
    assert.equal(
      (await test.core.listMemories({ filter: { user_id: USER }, sort: 'created', offset: 0, limit: 10 })).total,
      1,
    );
  });

  it('supersedes the memory a correction replaces', async () => {
    const old = await test.core.storeMemory({
      user_id: USER,
      content: 'The staging database listens on port 5432',
      memory_category: 'semantic',
      memory_subtype: 'environment',
    });
    const queue = await test.core.startExtraction(new RuleBasedExtractor());
    await checkpoint(test.core, ['Actually, the staging database listens on port 5433, not 5432.']);
    await queue.drain();
    const before = await test.core.getMemory(USER, old.memory_id);
    assert.ok(before.superseded_by, 'the old value is superseded');
    const correction = await test.core.getMemory(USER, before.superseded_by as string);
    assert.equal(correction.content, 'The staging database listens on port 5433, not 5432');
    assert.equal(correction.supersedes, old.memory_id);
    assert.equal(correction.metadata.corrects, '5432');
    assert.equal(queue.stats().superseded, 1);
  });

  it('retries with backoff and succeeds once the provider recovers', async () => {
    const extractor = new FlakyExtractor(2);
    const logs: string[] = [];
    const queue = await test.core.startExtraction(extractor, {
      baseDelayMs: 1,
      maxAttempts: 4,
      log: (message) => logs.push(message),
    });
    await checkpoint(test.core, [MESSAGE]);
    await queue.drain();
    assert.equal(extractor.calls, 3);
    assert.deepEqual([queue.stats().retries, queue.stats().succeeded, queue.stats().failed], [2, 1, 0]);
    assert.equal(logs.length, 2);
    assert.match(logs[0] ?? '', /attempt 1\/4, retry in 1 ms\): model overloaded/);
    assert.deepEqual(await pending(test.core), []);
  });

  it('gives up after maxAttempts, keeps the raw memory pending, and resumes later', async () => {
    const logs: string[] = [];
    const failing = await test.core.startExtraction(new FlakyExtractor(Infinity), {
      baseDelayMs: 1,
      maxAttempts: 3,
      log: (message) => logs.push(message),
    });
    const [rawId] = await checkpoint(test.core, [MESSAGE]);
    await failing.drain();
    assert.deepEqual(
      [failing.stats().failed, failing.stats().retries, failing.stats().last_error?.code],
      [1, 2, 'PROVIDER_ERROR'],
    );
    assert.match(logs.at(-1) ?? '', /gave up after 3 attempt\(s\) \[PROVIDER_ERROR\]/);
    assert.deepEqual(await pending(test.core), [rawId]);
    const raw = await test.core.getMemory(USER, rawId as string);
    assert.deepEqual(raw.metadata.extraction_error, {
      code: 'PROVIDER_ERROR',
      message: 'model overloaded',
      attempts: 3,
    });
    assert.equal(raw.deleted_at, null);

    // After a restart or an outage: a working extractor picks the pending memory up again.
    const recovered = await test.core.startExtraction(new RuleBasedExtractor());
    assert.equal(await recovered.resumePending(USER), 1);
    await recovered.drain();
    assert.deepEqual(await pending(test.core), []);
    assert.equal(recovered.stats().succeeded, 1);
  });

  it('does not retry errors a retry cannot fix', async () => {
    const extractor = new FlakyExtractor(Infinity, () => new MemoryError('UNAUTHORIZED', 'bad key'));
    const queue = await test.core.startExtraction(extractor, { baseDelayMs: 1, log: () => undefined });
    await checkpoint(test.core, [MESSAGE]);
    await queue.drain();
    assert.deepEqual([extractor.calls, queue.stats().retries, queue.stats().failed], [1, 0, 1]);
  });

  it('bounds concurrency and never blocks the tool call', async () => {
    let running = 0;
    let peak = 0;
    const gates: Array<() => void> = [];
    const queue = await test.core.startExtraction(
      {
        name: 'gated',
        extract: async (input) => {
          running++;
          peak = Math.max(peak, running);
          await new Promise<void>((resolve) => gates.push(resolve));
          running--;
          return new RuleBasedExtractor().extract(input);
        },
      },
      { concurrency: 2 },
    );
    // Checkpoint returns while every extraction is still held at its gate.
    const ids = await checkpoint(test.core, [
      'We decided to keep the cache TTL at five minutes for search results',
      'The flaky login test was fixed by waiting for the network to be idle',
      'Use uv instead of pip for the Python tooling in this repository',
      'Never commit generated protobuf files to the repository',
    ]);
    assert.equal(ids.length, 4);
    assert.deepEqual([queue.stats().running, queue.stats().queued], [2, 2]);
    while (queue.stats().succeeded < 4) {
      const release = gates.shift();
      if (release) release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await queue.drain();
    assert.equal(peak, 2);
  });
});
