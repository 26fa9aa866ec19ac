import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../src/core/portability/exportFormat.ts';
import { validateExport } from '../../src/core/portability/importMemories.ts';

const memory = (overrides: Record<string, unknown> = {}) => ({
  memory_id: 'mem_1', content: 'The deploy runs on Fridays', memory_category: 'semantic', memory_subtype: 'project', created_at: '2026-01-02T03:04:05Z', ...overrides,
});
const session = (overrides: Record<string, unknown> = {}) => ({ session_id: 'sess_1', max_tokens: 8000, next_sequence: 2, total_tokens: 10, eviction_policy: 'hybrid', created_at: '2026-01-02T03:04:05Z', ...overrides });
const item = (overrides: Record<string, unknown> = {}) => ({ item_id: 'wmi_1', session_id: 'sess_1', content: 'x', content_type: 'message', token_count: 1, sequence_num: 1, created_at: '2026-01-02T03:04:05Z', ...overrides });
const file = (overrides: Record<string, unknown> = {}) => ({ format: EXPORT_FORMAT, format_version: EXPORT_FORMAT_VERSION, memories: [memory()], ...overrides });

/** The field an invalid export is refused for. */
function refusedField(data: unknown): string {
  try {
    validateExport(data);
  } catch (error) {
    const typed = error as { code: string; details?: { field?: string } };
    assert.ok(['INVALID_INPUT', 'INVALID_CLASSIFICATION'].includes(typed.code), `code ${typed.code}`);
    return typed.details?.field ?? typed.code;
  }
  throw new Error('the export was accepted');
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
    for (const [overrides, field] of bad) assert.equal(refusedField(file({ memories: [memory(overrides)] })), field, JSON.stringify(overrides));
    assert.equal(refusedField(file({ memories: [memory(), 'x'] })), 'memories[1]');
    assert.equal(refusedField(file({ memories: [memory({ memory_category: 'semantic', memory_subtype: 'nonsense' })] })).length > 0, true);
    assert.throws(() => validateExport(file({ memories: [memory({ memory_id: '' })] })));
    assert.throws(() => validateExport(file({ memories: [memory({ layer: 'agent' })] })), 'an agent memory needs its scope id');
  });

  it('fills the documented defaults and normalises times', () => {
    const [parsed] = validateExport(file({ memories: [memory({ created_at: '2026-01-02T04:04:05+01:00', access_count: 3.7, summary: 5, is_temporal: 'yes', pinned: 1 })] })).memories;
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
    assert.deepEqual([parsed.supersedes, parsed.superseded_by, parsed.source_session, parsed.org_id, parsed.project_id], [null, null, null, null, null]);
    assert.equal(parsed.embedding_model, null);

    const [edges] = validateExport(file({ memories: [memory({ importance: 0, decay_factor: 1, confidence: 0, access_count: -4, is_temporal: true, pinned: true, layer: 'agent', scope_id: 'copilot', summary: 'short', supersedes: 'mem_0', event_time: '2026-01-01T00:00:00Z' })] })).memories;
    assert.deepEqual([edges.importance, edges.decay_factor, edges.confidence, edges.access_count], [0, 1, 0, 0]);
    assert.deepEqual([edges.is_temporal, edges.pinned, edges.layer, edges.scope_id, edges.summary, edges.supersedes], [true, true, 'agent', 'copilot', 'short', 'mem_0']);
    assert.equal(edges.event_time, '2026-01-01T00:00:00.000Z');
    assert.deepEqual(validateExport(file()).sessions, []);
    assert.deepEqual(validateExport(file()).working_items, []);
  });

  it('refuses bad sessions and working items field by field, like tool input, and defaults only what is absent', () => {
    assert.equal(refusedField(file({ sessions: ['x'] })), 'sessions[0]');
    for (const field of ['max_tokens', 'next_sequence', 'total_tokens']) assert.equal(refusedField(file({ sessions: [session({ [field]: '1' })] })), `sessions[0].${field}`);
    assert.equal(refusedField(file({ sessions: [session({ max_tokens: -5 })] })), 'sessions[0].max_tokens');
    assert.equal(refusedField(file({ sessions: [session({ eviction_policy: 'fifo' })] })), 'sessions[0].eviction_policy');
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
    for (const policy of ['lru', 'relevance', 'hybrid']) assert.equal(validateExport(file({ sessions: [session({ eviction_policy: policy, config: { a: 1 } })] })).sessions[0].config.a, 1);
  });
});
