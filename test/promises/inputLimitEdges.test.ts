import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { SHARED_LAYERS } from '../../src/core/domain/layers.ts';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../src/core/portability/exportFormat.ts';
import { LIMITS } from '../../src/core/validation.ts';
import { callError, callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * The input limits of docs/mcp.md ("Errors") and docs/lifecycle.md ("Bad input") at their edge:
 * content is measured in UTF-8 bytes (100 KB = 102,400), so text of fewer characters but more
 * bytes is refused; a query may have 4,000 characters; JSON may nest 32 levels; and every shared
 * layer's prefix is refused as a user id (SECURITY.md, "Reading or writing a shared layer"). Each
 * limit is tried at the limit and one past it, on every entry point that enforces it.
 */

const KB100 = LIMITS.contentBytes;
/**
 * Text of exactly `bytes` UTF-8 bytes: words of a multi-byte character and a space (so it has far
 * fewer characters than bytes), topped up with ASCII. Spaces keep the token counter fast: it is
 * quadratic in the length of one unbroken word.
 */
const filledWith =
  (unit: string) =>
  (bytes: number): string => {
    const unitBytes = Buffer.byteLength(unit);
    return unit.repeat(Math.floor(bytes / unitBytes)) + 'a'.repeat(bytes % unitBytes);
  };
const twoByteText = filledWith('é ');
const fourByteText = filledWith('🦊 ');

/** A JSON object nested `levels` deep: the object itself is level 1. */
function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 1; level < levels; level++) value = { inner: value };
  return value;
}
/** An object holding arrays, `levels` deep in all. */
function nestedArrays(levels: number): Record<string, unknown> {
  let value: unknown = ['leaf'];
  for (let level = 2; level < levels; level++) value = [value];
  return { list: value };
}

const isCode = (code: string, field?: string) => (error: unknown) =>
  error instanceof MemoryError && error.code === code && (field === undefined || error.details?.field === field);

describe('content over 100 KB is counted in UTF-8 bytes, on every entry point', () => {
  let test: TestCore;
  let memoryId: string;
  let sessionId: string;
  const user = 'bytes-user';
  before(async () => {
    test = await createTestCore();
    memoryId = (
      await test.core.storeMemory({
        user_id: user,
        content: 'A short memory to edit.',
        memory_category: 'semantic',
        memory_subtype: 'project',
      })
    ).memory_id;
    sessionId = (await test.core.initSession({ user_id: user, config: { max_tokens: LIMITS.maxTokens } })).session_id;
  });
  after(() => test.cleanup());

  const entryPoints: Array<[string, (content: string) => Promise<unknown>]> = [
    [
      'store_memory',
      (content) =>
        test.core.storeMemory({ user_id: user, content, memory_category: 'semantic', memory_subtype: 'project' }),
    ],
    ['update_memory', (content) => test.core.updateMemory({ user_id: user, memory_id: memoryId, content })],
    [
      'add_to_working_memory',
      (content) =>
        test.core.addToWorkingMemory({ session_id: sessionId, user_id: user, content, content_type: 'scratchpad' }),
    ],
    [
      'import_memories',
      (content) =>
        test.core.importMemories(user, {
          format: EXPORT_FORMAT,
          format_version: EXPORT_FORMAT_VERSION,
          memories: [
            {
              memory_id: `mem_import_${content.length}_${Buffer.byteLength(content)}`,
              content,
              memory_category: 'semantic',
              memory_subtype: 'project',
              created_at: '2026-01-01T00:00:00Z',
            },
          ],
        }),
    ],
  ];

  for (const [tool, write] of entryPoints) {
    for (const [shape, text] of [
      ['two-byte', twoByteText],
      ['four-byte', fourByteText],
    ] as const) {
      it(`${tool}: ${shape} text of exactly 102,400 bytes is accepted`, async () => {
        const content = text(KB100);
        assert.equal(Buffer.byteLength(content), KB100);
        await write(content);
      });
      it(`${tool}: ${shape} text of 102,401 bytes (far fewer characters) is CONTENT_TOO_LONG`, async () => {
        const content = text(KB100 + 1);
        assert.equal(Buffer.byteLength(content), KB100 + 1);
        assert.ok(content.length < (KB100 * 2) / 3 + 3, 'the characters alone are well under the limit');
        await assert.rejects(write(content), isCode('CONTENT_TOO_LONG'));
      });
    }
  }
});

describe('a query of 4,000 characters is read, 4,001 is QUERY_TOO_LONG, in recall and context', () => {
  let test: TestCore;
  let sessionId: string;
  const user = 'query-user';
  before(async () => {
    test = await createTestCore();
    sessionId = (await test.core.initSession({ user_id: user })).session_id;
  });
  after(() => test.cleanup());

  const readers: Array<[string, (query: string) => Promise<unknown>]> = [
    ['recall_memories', (query) => test.core.recall({ user_id: user, query })],
    [
      'get_relevant_context',
      (query) => test.core.getRelevantContext({ session_id: sessionId, user_id: user, query, token_budget: 2000 }),
    ],
  ];
  const words = (chars: number): string => 'deploy the parser '.repeat(Math.ceil(chars / 18)).slice(0, chars - 1) + 'x';
  for (const [tool, read] of readers) {
    it(`${tool}: exactly 4,000 characters is answered`, async () => {
      assert.equal(words(LIMITS.queryChars).length, 4_000);
      await read(words(LIMITS.queryChars));
    });
    it(`${tool}: 4,001 characters is QUERY_TOO_LONG`, async () => {
      await assert.rejects(read(words(LIMITS.queryChars + 1)), isCode('QUERY_TOO_LONG', 'query'));
    });
  }
});

describe('JSON nested 32 levels is accepted and 33 is INVALID_INPUT, objects and arrays, stored and imported', () => {
  let test: TestCore;
  let connection: Awaited<ReturnType<typeof connectClient>>;
  let memoryId: string;
  const user = 'depth-user';
  before(async () => {
    test = await createTestCore();
    connection = await connectClient({ core: test.core, adminTools: true });
    memoryId = (
      await test.core.storeMemory({
        user_id: user,
        content: 'A memory whose metadata is edited.',
        memory_category: 'semantic',
        memory_subtype: 'project',
      })
    ).memory_id;
  });
  after(async () => {
    await connection.close();
    await test.cleanup();
  });

  const writers: Array<[string, (metadata: Record<string, unknown>, n: number) => [string, Record<string, unknown>]]> =
    [
      [
        'store_memory',
        (metadata, n) => [
          'store_memory',
          {
            user_id: user,
            content: `Nested metadata case ${n}`,
            memory_category: 'semantic',
            memory_subtype: 'project',
            metadata,
          },
        ],
      ],
      ['update_memory', (metadata) => ['update_memory', { user_id: user, memory_id: memoryId, metadata }]],
      [
        'import_memories',
        (metadata, n) => [
          'import_memories',
          {
            user_id: user,
            data: {
              format: EXPORT_FORMAT,
              format_version: EXPORT_FORMAT_VERSION,
              memories: [
                {
                  memory_id: `mem_nested_${n}`,
                  content: `Imported nested case ${n}`,
                  memory_category: 'semantic',
                  memory_subtype: 'project',
                  created_at: '2026-01-01T00:00:00Z',
                  metadata,
                },
              ],
            },
          },
        ],
      ],
    ];
  let n = 0;
  for (const [tool, call] of writers) {
    for (const [shape, build] of [
      ['objects', nestedObject],
      ['arrays', nestedArrays],
    ] as const) {
      it(`${tool}: ${shape} 32 levels deep are accepted`, async () => {
        const [name, args] = call(build(LIMITS.jsonDepth), n++);
        await callOk(connection.client, name, args);
      });
      it(`${tool}: ${shape} 33 levels deep are INVALID_INPUT, not retryable`, async () => {
        const [name, args] = call(build(LIMITS.jsonDepth + 1), n++);
        const error = (await callError(connection.client, name, args)) as { code: string; retryable?: boolean };
        assert.equal(error.code, 'INVALID_INPUT');
        assert.equal(error.retryable, false);
      });
    }
  }
});

describe('no user id can spell a shared layer’s partition', () => {
  let test: TestCore;
  before(async () => {
    test = await createTestCore();
  });
  after(() => test.cleanup());

  it('reads the shared layers', () => assert.deepEqual([...SHARED_LAYERS], ['project', 'team', 'org', 'company']));
  for (const layer of SHARED_LAYERS) {
    it(`a user id starting with "${layer}:" is INVALID_INPUT on user_id, for memories and sessions`, async () => {
      const user = `${layer}:acme`;
      await assert.rejects(
        test.core.storeMemory({
          user_id: user,
          content: 'Sneaky',
          memory_category: 'semantic',
          memory_subtype: 'project',
        }),
        isCode('INVALID_INPUT', 'user_id'),
      );
      await assert.rejects(test.core.recall({ user_id: user, query: 'anything' }), isCode('INVALID_INPUT', 'user_id'));
      await assert.rejects(test.core.initSession({ user_id: user }), isCode('INVALID_INPUT', 'user_id'));
    });
    it(`"${layer}" without the colon, or inside a longer name, is an ordinary user id`, async () => {
      await test.core.storeMemory({
        user_id: `${layer}-lead`,
        content: `An ordinary memory of ${layer}-lead`,
        memory_category: 'semantic',
        memory_subtype: 'project',
      });
    });
  }
});
