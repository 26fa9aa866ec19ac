import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../src/core/portability/exportFormat.ts';
import { validateExport } from '../../src/core/portability/exportFileReader.ts';

const memory = (overrides: Record<string, unknown> = {}) => ({
  memory_id: 'mem_1',
  content: 'The deploy runs on Fridays',
  memory_category: 'semantic',
  memory_subtype: 'project',
  created_at: '2026-01-02T03:04:05Z',
  ...overrides,
});
const session = (overrides: Record<string, unknown> = {}) => ({
  session_id: 'sess_1',
  max_tokens: 8000,
  next_sequence: 2,
  total_tokens: 10,
  eviction_policy: 'hybrid',
  created_at: '2026-01-02T03:04:05Z',
  ...overrides,
});
const item = (overrides: Record<string, unknown> = {}) => ({
  item_id: 'wmi_1',
  session_id: 'sess_1',
  content: 'x',
  content_type: 'message',
  token_count: 1,
  sequence_num: 1,
  created_at: '2026-01-02T03:04:05Z',
  ...overrides,
});
const file = (overrides: Record<string, unknown> = {}) => ({
  format: EXPORT_FORMAT,
  format_version: EXPORT_FORMAT_VERSION,
  memories: [memory()],
  ...overrides,
});

/** The field an invalid export is refused for. */
function refusedField(data: unknown): string {
  try {
    validateExport(data);
  } catch (error) {
    const typed = error as { code: string; details?: { field?: string } };
    assert.ok(
      ['INVALID_INPUT', 'INVALID_CLASSIFICATION', 'MISSING_IDENTIFIER'].includes(typed.code),
      `code ${typed.code}`,
    );
    return typed.details?.field ?? typed.code;
  }
  throw new Error('the export was accepted');
}

/** The message an invalid export is refused with: what the user reads in the import error. */
function refusal(data: unknown): string {
  try {
    validateExport(data);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the export was accepted');
}

/** A value nested deeper than the JSON depth limit (32). */
function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) value = { nested: value };
  return value;
}

describe('import validation: a hand-edited or foreign file is refused with the field named', () => {
  it('refuses the wrong envelope', () => {
    assert.equal(refusedField(null), 'data');
    assert.equal(refusedField([]), 'data');
    assert.equal(refusedField(file({ format: 'other' })), 'format');
    assert.equal(refusedField(file({ format_version: EXPORT_FORMAT_VERSION + 1 })), 'format_version');
    assert.equal(refusedField(file({ memories: {} })), 'memories');
    assert.equal(refusedField(file({ sessions: {} })), 'sessions');
    assert.equal(refusedField(file({ working_items: 'x' })), 'working_items');
  });

  it('refuses a bad memory field by field', () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ content: 7 }, 'memories[0].content'],
      [{ entities: 'a' }, 'memories[0].entities'],
      [{ tags: ['a', 1] }, 'memories[0].tags'],
      [{ related_memories: [null] }, 'memories[0].related_memories'],
      [{ importance: 1.01 }, 'memories[0].importance'],
      [{ importance: -0.01 }, 'memories[0].importance'],
      [{ importance: Number.NaN }, 'memories[0].importance'],
      [{ importance: '0.5' }, 'memories[0].importance'],
      [{ decay_factor: 2 }, 'memories[0].decay_factor'],
      [{ confidence: -1 }, 'memories[0].confidence'],
      [{ created_at: 'yesterday' }, 'memories[0].created_at'],
      [{ created_at: null }, 'memories[0].created_at'],
      [{ event_time: 'not a time' }, 'memories[0].event_time'],
      [{ last_accessed: 5 }, 'memories[0].last_accessed'],
      [{ source_type: 'gossip' }, 'memories[0].source_type'],
      [{ metadata: [] }, 'memories[0].metadata'],
      [{ metadata: 'x' }, 'memories[0].metadata'],
      [{ layer: 'team', scope_id: 't' }, 'memories[0].layer'],
    ];
    for (const [overrides, field] of bad)
      assert.equal(refusedField(file({ memories: [memory(overrides)] })), field, JSON.stringify(overrides));
    assert.equal(refusedField(file({ memories: [memory(), 'x'] })), 'memories[1]');
    assert.equal(
      refusedField(file({ memories: [memory({ memory_category: 'semantic', memory_subtype: 'nonsense' })] })).length >
        0,
      true,
    );
    assert.throws(() => validateExport(file({ memories: [memory({ memory_id: '' })] })));
    assert.throws(
      () => validateExport(file({ memories: [memory({ layer: 'agent' })] })),
      'an agent memory needs its scope id',
    );
  });

  it('fills the documented defaults and normalises times', () => {
    const [parsed] = validateExport(
      file({
        memories: [
          memory({
            created_at: '2026-01-02T04:04:05+01:00',
            access_count: 3.7,
            summary: 5,
            is_temporal: 'yes',
            pinned: 1,
          }),
        ],
      }),
    ).memories;
    assert.equal(parsed.created_at, '2026-01-02T03:04:05.000Z');
    assert.equal(parsed.last_accessed, parsed.created_at);
    assert.equal(parsed.updated_at, parsed.created_at);
    assert.equal(parsed.deleted_at, null);
    assert.equal(parsed.event_time, null);
    assert.equal(parsed.importance, 0.5);
    assert.equal(parsed.decay_factor, 1);
    assert.equal(parsed.confidence, 1);
    assert.equal(parsed.access_count, 3);
    assert.equal(parsed.summary, null);
    assert.equal(parsed.is_temporal, false, 'only true is true');
    assert.equal(parsed.pinned, false, 'only true is true');
    assert.equal(parsed.layer, 'user');
    assert.equal(parsed.scope_id, '');
    assert.equal(parsed.source_type, 'explicit');
    assert.deepEqual(parsed.metadata, {});
    assert.deepEqual([parsed.entities, parsed.tags, parsed.related_memories], [[], [], []]);
    assert.deepEqual(
      [parsed.supersedes, parsed.superseded_by, parsed.source_session, parsed.org_id, parsed.project_id],
      [null, null, null, null, null],
    );
    assert.equal(parsed.embedding_model, null);

    const [edges] = validateExport(
      file({
        memories: [
          memory({
            importance: 0,
            decay_factor: 1,
            confidence: 0,
            access_count: -4,
            is_temporal: true,
            pinned: true,
            layer: 'agent',
            scope_id: 'copilot',
            summary: 'short',
            supersedes: 'mem_0',
            event_time: '2026-01-01T00:00:00Z',
          }),
        ],
      }),
    ).memories;
    assert.deepEqual([edges.importance, edges.decay_factor, edges.confidence, edges.access_count], [0, 1, 0, 0]);
    assert.deepEqual(
      [edges.is_temporal, edges.pinned, edges.layer, edges.scope_id, edges.summary, edges.supersedes],
      [true, true, 'agent', 'copilot', 'short', 'mem_0'],
    );
    assert.equal(edges.event_time, '2026-01-01T00:00:00.000Z');
    assert.deepEqual(validateExport(file()).sessions, []);
    assert.deepEqual(validateExport(file()).working_items, []);
  });

  it('refuses bad sessions and working items field by field, like tool input, and defaults only what is absent', () => {
    assert.equal(refusedField(file({ sessions: ['x'] })), 'sessions[0]');
    for (const field of ['max_tokens', 'next_sequence', 'total_tokens'])
      assert.equal(refusedField(file({ sessions: [session({ [field]: '1' })] })), `sessions[0].${field}`);
    assert.equal(refusedField(file({ sessions: [session({ max_tokens: -5 })] })), 'sessions[0].max_tokens');
    assert.equal(
      refusedField(file({ sessions: [session({ eviction_policy: 'fifo' })] })),
      'sessions[0].eviction_policy',
    );
    assert.equal(refusedField(file({ sessions: [session({ created_at: 'garbage' })] })), 'sessions[0].created_at');
    assert.equal(refusedField(file({ sessions: [session({ config: 'x' })] })), 'sessions[0].config');
    assert.equal(refusedField(file({ working_items: [7] })), 'working_items[0]');
    for (const [overrides, field] of [
      [{ content: 1 }, 'content'],
      [{ token_count: '1' }, 'token_count'],
      [{ token_count: -1e9 }, 'token_count'],
      [{ sequence_num: null }, 'sequence_num'],
      [{ content_type: '<img src=x>' }, 'content_type'],
      [{ metadata: [1] }, 'metadata'],
    ] as const) {
      assert.equal(refusedField(file({ working_items: [item(overrides)] })), `working_items[0].${field}`);
    }
    assert.throws(() => validateExport(file({ working_items: [item({ session_id: '' })] })));
    const parsed = validateExport(file({ sessions: [session()], working_items: [item()] }));
    assert.deepEqual(parsed.sessions[0].config, {});
    assert.deepEqual(parsed.working_items[0].metadata, {});
    assert.equal(parsed.sessions[0].last_activity, parsed.sessions[0].created_at);
    for (const policy of ['lru', 'relevance', 'hybrid'])
      assert.equal(
        validateExport(file({ sessions: [session({ eviction_policy: policy, config: { a: 1 } })] })).sessions[0].config
          .a,
        1,
      );
  });

  it('says what is wrong in words the user can act on', () => {
    const prefix = 'Not a valid memory export: ';
    const cases: Array<[unknown, string]> = [
      [null, 'expected a JSON object.'],
      [file({ format: 'other' }), 'format must be "firebolt-memory-layer/export".'],
      [file({ format_version: 9 }), 'format_version 9 is not supported (this server reads 1).'],
      [file({ memories: {} }), 'memories must be an array.'],
      [file({ sessions: {} }), 'sessions must be an array.'],
      [file({ working_items: {} }), 'working_items must be an array.'],
      [file({ memories: ['x'] }), 'memories[0] must be an object.'],
      [file({ memories: [memory({ content: 7 })] }), 'memories[0].content must be a string.'],
      [file({ memories: [memory({ tags: [1] })] }), 'memories[0].tags must be a list of strings.'],
      [file({ memories: [memory({ importance: 2 })] }), 'memories[0].importance must be a number from 0 to 1.'],
      [
        file({ memories: [memory({ created_at: 'x' })] }),
        'memories[0].created_at must be an ISO-8601 time on a real calendar date.',
      ],
      [
        file({ memories: [memory({ source_type: 'x' })] }),
        'memories[0].source_type must be one of conversation, explicit, inferred, observed, editor, extraction, working_memory.',
      ],
      [file({ memories: [memory({ metadata: 'x' })] }), 'memories[0].metadata must be an object.'],
      [
        file({ memories: [memory({ layer: 'org' })] }),
        "memories[0].layer must be user, agent or session; shared layers are not part of a user's export.",
      ],
      [file({ sessions: ['x'] }), 'sessions[0] must be an object.'],
      [
        file({ sessions: [session({ eviction_policy: 'x' })] }),
        'sessions[0].eviction_policy must be lru, relevance or hybrid.',
      ],
      [
        file({ sessions: [session({ max_tokens: 0 })] }),
        'sessions[0].max_tokens must be a whole number from 1 to 2000000; got 0.',
      ],
      [
        file({ sessions: [session({ created_at: '2026-01-02 03:04' })] }),
        'sessions[0].created_at must be an ISO-8601 time on a real calendar date.',
      ],
      [file({ sessions: [session({ config: [] })] }), 'sessions[0].config must be an object.'],
      [file({ working_items: ['x'] }), 'working_items[0] must be an object.'],
      [file({ working_items: [item({ content: 1 })] }), 'working_items[0].content must be a string.'],
      [
        file({ working_items: [item({ content_type: 'x' })] }),
        'working_items[0].content_type must be one of message, task_state, scratchpad, system, retrieved_memory, editor_context.',
      ],
      [file({ working_items: [item({ pinned: 'yes' })] }), 'working_items[0].pinned must be true or false.'],
      [
        file({ working_items: [item({ relevance_score: 1.5 })] }),
        'working_items[0].relevance_score must be a number from 0 to 1.',
      ],
      [
        file({ working_items: [item({ sequence_num: 1.5 })] }),
        'working_items[0].sequence_num must be a whole number from 0 to 9007199254740991; got 1.5.',
      ],
    ];
    for (const [data, message] of cases) assert.equal(refusal(data), prefix + message);
    assert.match(
      refusal(file({ working_items: [item({ metadata: deep(40) })] })),
      /^Not a valid memory export: working_items\[0\]\.metadata: .*nested/,
    );
  });

  it('checks each field of sessions and working items at its own bounds', () => {
    const accepts = (data: unknown) => assert.doesNotThrow(() => validateExport(data), JSON.stringify(data));
    for (const [field, low, high] of [
      ['max_tokens', 1, 2_000_000],
      ['total_tokens', 0, 2_000_000],
      ['next_sequence', 1, Number.MAX_SAFE_INTEGER],
    ] as const) {
      accepts(file({ sessions: [session({ [field]: low })] }));
      accepts(file({ sessions: [session({ [field]: high })] }));
      assert.equal(refusedField(file({ sessions: [session({ [field]: low - 1 })] })), `sessions[0].${field}`);
      if (high < Number.MAX_SAFE_INTEGER)
        assert.equal(refusedField(file({ sessions: [session({ [field]: high + 1 })] })), `sessions[0].${field}`);
      assert.equal(refusedField(file({ sessions: [session({ [field]: 1.5 })] })), `sessions[0].${field}`);
    }
    accepts(file({ working_items: [item({ relevance_score: 0 })] }));
    accepts(file({ working_items: [item({ relevance_score: 1, pinned: true })] }));
    assert.equal(
      refusedField(file({ working_items: [item({ relevance_score: -0.1 })] })),
      'working_items[0].relevance_score',
    );
    assert.equal(
      refusedField(file({ working_items: [item({ relevance_score: '1' })] })),
      'working_items[0].relevance_score',
    );
    assert.equal(
      refusedField(file({ working_items: [item({ relevance_score: Number.NaN })] })),
      'working_items[0].relevance_score',
    );
    assert.throws(() => validateExport(file({ working_items: [item({ item_id: '' })] })), {
      code: 'MISSING_IDENTIFIER',
    });
    assert.throws(() => validateExport(file({ sessions: [session({ session_id: '' })] })), {
      code: 'MISSING_IDENTIFIER',
    });
    for (const field of ['org_id', 'project_id'] as const) {
      assert.equal(validateExport(file({ sessions: [session({ [field]: 'p1' })] })).sessions[0][field], 'p1');
      assert.equal(validateExport(file({ sessions: [session({ [field]: null })] })).sessions[0][field], null);
      assert.throws(() => validateExport(file({ sessions: [session({ [field]: 5 })] })));
    }
  });

  it('keeps what the file says for sessions and items, normalising times', () => {
    const parsed = validateExport(
      file({
        sessions: [
          session({
            total_tokens: undefined,
            last_activity: '2026-01-03T00:00:00+02:00',
            expires_at: '2026-02-01',
            config: { budget: 'tight' },
          }),
        ],
        working_items: [
          item({
            token_count: undefined,
            relevance_score: undefined,
            pinned: true,
            last_accessed: '2026-01-02T05:00:00Z',
            metadata: { from: 'editor' },
            content_type: 'task_state',
          }),
        ],
      }),
    );
    const [parsedSession] = parsed.sessions;
    assert.deepEqual(parsedSession, {
      session_id: 'sess_1',
      user_id: '',
      org_id: null,
      project_id: null,
      max_tokens: 8000,
      total_tokens: 0,
      eviction_policy: 'hybrid',
      next_sequence: 2,
      created_at: '2026-01-02T03:04:05.000Z',
      last_activity: '2026-01-02T22:00:00.000Z',
      expires_at: '2026-02-01T00:00:00.000Z',
      config: { budget: 'tight' },
    });
    assert.deepEqual(parsed.working_items[0], {
      item_id: 'wmi_1',
      session_id: 'sess_1',
      user_id: '',
      content_type: 'task_state',
      content: 'x',
      token_count: 0,
      relevance_score: 1,
      pinned: true,
      sequence_num: 1,
      created_at: '2026-01-02T03:04:05.000Z',
      last_accessed: '2026-01-02T05:00:00.000Z',
      metadata: { from: 'editor' },
    });
    assert.equal(validateExport(file({ sessions: [session({ expires_at: null })] })).sessions[0].expires_at, null);
    assert.equal(validateExport(file({ working_items: [item({ pinned: false })] })).working_items[0].pinned, false);
    assert.equal(
      validateExport(file({ working_items: [item()] })).working_items[0].last_accessed,
      '2026-01-02T03:04:05.000Z',
    );
  });

  it('keeps what the file says for a memory', () => {
    const [parsed] = validateExport(
      file({
        memories: [
          memory({
            layer: 'session',
            scope_id: 'sess_9',
            org_id: 'o1',
            project_id: 'p1',
            entities: ['file:a.ts'],
            tags: ['ci'],
            metadata: { k: 'v' },
            importance: 0.7,
            decay_factor: 0.4,
            confidence: 0.6,
            access_count: 4,
            related_memories: ['mem_2'],
            superseded_by: 'mem_3',
            source_session: 'sess_9',
            source_type: 'editor',
            last_accessed: '2026-01-05T00:00:00Z',
            updated_at: '2026-01-04T00:00:00Z',
            deleted_at: '2026-01-06T00:00:00Z',
            is_temporal: true,
          }),
        ],
      }),
    ).memories;
    assert.deepEqual(
      [
        parsed.layer,
        parsed.scope_id,
        parsed.org_id,
        parsed.project_id,
        parsed.entities,
        parsed.tags,
        parsed.metadata,
        parsed.importance,
        parsed.decay_factor,
        parsed.confidence,
        parsed.access_count,
      ],
      ['session', 'sess_9', 'o1', 'p1', ['file:a.ts'], ['ci'], { k: 'v' }, 0.7, 0.4, 0.6, 4],
    );
    assert.deepEqual(
      [
        parsed.related_memories,
        parsed.superseded_by,
        parsed.source_session,
        parsed.source_type,
        parsed.last_accessed,
        parsed.updated_at,
        parsed.deleted_at,
        parsed.is_temporal,
      ],
      [
        ['mem_2'],
        'mem_3',
        'sess_9',
        'editor',
        '2026-01-05T00:00:00.000Z',
        '2026-01-04T00:00:00.000Z',
        '2026-01-06T00:00:00.000Z',
        true,
      ],
    );
    assert.throws(
      () => validateExport(file({ memories: [memory({ layer: 'session' })] })),
      { code: 'MISSING_IDENTIFIER' },
      'a session memory needs its scope id',
    );
    assert.equal(
      validateExport(file({ memories: [memory({ access_count: '3' })] })).memories[0].access_count,
      0,
      'a count that is not a number is 0',
    );
  });

  it('names the exact field of every bad id and time, in memories, sessions and items', () => {
    const memoryFields: Array<[Record<string, unknown>, string]> = [
      [{ memory_id: 7 }, 'memory_id'],
      [{ layer: 'agent', scope_id: 7 }, 'scope_id'],
      [{ org_id: 7 }, 'org_id'],
      [{ project_id: 7 }, 'project_id'],
      [{ supersedes: 7 }, 'supersedes'],
      [{ superseded_by: 7 }, 'superseded_by'],
      [{ source_session: 7 }, 'source_session'],
      [{ updated_at: 'soon' }, 'updated_at'],
      [{ deleted_at: 'soon' }, 'deleted_at'],
    ];
    for (const [overrides, field] of memoryFields)
      assert.equal(refusedField(file({ memories: [memory(overrides)] })), `memories[0].${field}`, field);
    const sessionFields: Array<[Record<string, unknown>, string]> = [
      [{ session_id: 7 }, 'session_id'],
      [{ org_id: 7 }, 'org_id'],
      [{ project_id: 7 }, 'project_id'],
      [{ last_activity: 'soon' }, 'last_activity'],
      [{ expires_at: 'soon' }, 'expires_at'],
    ];
    for (const [overrides, field] of sessionFields)
      assert.equal(refusedField(file({ sessions: [session(overrides)] })), `sessions[0].${field}`, field);
    const itemFields: Array<[Record<string, unknown>, string]> = [
      [{ item_id: 7 }, 'item_id'],
      [{ session_id: 7 }, 'session_id'],
      [{ pinned: 'yes' }, 'pinned'],
      [{ content: '' }, 'content'],
      [{ last_accessed: 'soon' }, 'last_accessed'],
    ];
    for (const [overrides, field] of itemFields)
      assert.equal(refusedField(file({ working_items: [item(overrides)] })), `working_items[0].${field}`, field);
  });

  it('reads null as absent for optional ids and times, and never takes an owner from the file', () => {
    const [parsed] = validateExport(
      file({
        memories: [
          memory({ user_id: 'someone-else', event_time: null, supersedes: null, superseded_by: null, org_id: null }),
        ],
      }),
    ).memories;
    assert.deepEqual(
      [parsed.event_time, parsed.supersedes, parsed.superseded_by, parsed.org_id],
      [null, null, null, null],
    );
    assert.equal(parsed.user_id, '', 'the importing user is set by the import, not by the file');
    assert.equal(
      validateExport(
        file({ sessions: [session({ user_id: 'someone-else' })], working_items: [item({ user_id: 'someone-else' })] }),
      ).working_items[0].user_id,
      '',
    );
  });
});
