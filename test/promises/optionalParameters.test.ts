import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../src/mcp/toolCatalog.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Every optional parameter of the read tools that can widen what passes (filters, layers, focus,
 * min_similarity, include_low_confidence, alternate wordings, time bounds) against the promises it
 * could break: a question about something never stored still gets nothing (abstention, SECURITY.md
 * "Flooding the agent's context"), another user's or another project's memories never come back
 * (isolation), and `limit` still bounds the answer. The parameters are read from the tool's input
 * schema in the catalog: a new optional parameter fails the first test until it has a value here,
 * and then gets every check.
 */

const ALICE_PROJECT = 'github.com/alice/app';
const VICTIM_PROJECT = 'github.com/victim/secret';
const VICTIM_WORD = 'quokkaflux';
/**
 * Never stored, but sharing one word ("deploy") with a stored memory: there is a candidate, under
 * the floor. Only the floor keeps it out, so an option that bypasses the floor brings it back.
 */
const NEVER_STORED = 'How do I deploy a Kubernetes ingress controller on bare metal?';

/** A value for each optional parameter of recall_memories, chosen to widen the search where it can. */
const RECALL_VALUES: Record<string, unknown> = {
  memory_categories: ['semantic', 'episodic', 'procedural'],
  memory_subtypes: ['project', 'decision', 'workflow', 'user'],
  entities: ['file:src/never-stored.ts'],
  limit: 100,
  min_similarity: 0,
  alternate_queries: ['something else never written down', 'yet another wording of it'],
  time_range: { after: '2000-01-01T00:00:00Z', before: '2100-01-01T00:00:00Z' },
  tags: ['deploy', 'parser'],
  include_low_confidence: true,
  layers: ['user', 'project', 'session', 'agent'],
  explain: true,
  agent_id: 'copilot',
  session_id: 'sess_alice_window',
  project_id: ALICE_PROJECT,
  team_id: 'platform',
  org_id: 'acme',
  company_id: 'globex',
};
/** What a parameter needs beside it: a layer is searched only with its identifiers. */
const COMPANIONS: Record<string, Record<string, unknown>> = {
  layers: { project_id: ALICE_PROJECT, agent_id: 'copilot', session_id: 'sess_alice_window' },
};
/** For abstention, min_similarity is given explicitly at the default floor: 0 asks for every candidate. */
const ABSTENTION_VALUES: Record<string, unknown> = { min_similarity: 0.3 };
const optionArgs = (name: string): Record<string, unknown> => ({ [name]: RECALL_VALUES[name], ...COMPANIONS[name] });
/** Parameters every call carries, not options. */
const REQUIRED = new Set(['user_id', 'query']);

const recallTool = TOOLS.find((tool) => tool.name === 'recall_memories')!;
const OPTIONAL = Object.keys(recallTool.input).filter((name) => !REQUIRED.has(name));

interface Recalled {
  memories: Array<{ memory_id: string; content: string }>;
  retrieval_breakdown: { abstained?: boolean };
}

describe('every optional parameter of recall keeps abstention, isolation and limits', () => {
  let test: TestCore;
  let client: Client;
  let close: () => Promise<void>;
  const victimIds: string[] = [];

  before(async () => {
    test = await createTestCore();
    ({ client, close } = await connectClient({ core: test.core }));
    const alice = { user_id: 'alice' };
    for (const [content, extra] of [
      [
        'We decided to deploy the parser service every Tuesday',
        { memory_category: 'episodic', memory_subtype: 'decision', tags: ['deploy'] },
      ],
      [
        'To release: tag main, then run the publish workflow',
        { memory_category: 'procedural', memory_subtype: 'workflow', layer: 'project', project_id: ALICE_PROJECT },
      ],
      ['Alice prefers small pull requests for the parser', { memory_category: 'semantic', memory_subtype: 'user' }],
      [
        'The parser is hand-written, no generator',
        { memory_category: 'semantic', memory_subtype: 'project', layer: 'team', team_id: 'platform' },
      ],
      [
        'Copilot drafts the changelog for each release',
        { memory_category: 'semantic', memory_subtype: 'project', layer: 'agent', agent_id: 'copilot' },
      ],
    ] as const) {
      await callOk(client, 'store_memory', { ...alice, content, ...extra });
    }
    // The victim's memories, each holding a word alice's queries ask for: in the victim's own layer
    // and in a project alice does not name.
    for (const [content, extra] of [
      [
        `The ${VICTIM_WORD} deploy key rotates every Monday`,
        { memory_category: 'episodic', memory_subtype: 'decision', tags: ['deploy'] },
      ],
      [
        `We decided ${VICTIM_WORD} deploys the parser service`,
        { memory_category: 'episodic', memory_subtype: 'decision', layer: 'project', project_id: VICTIM_PROJECT },
      ],
    ] as const) {
      victimIds.push(
        (await callOk<{ memory_id: string }>(client, 'store_memory', { user_id: 'victim', content, ...extra }))
          .memory_id,
      );
    }
  });
  after(async () => {
    await close();
    await test.cleanup();
  });

  it('has a widening value for every optional parameter recall_memories takes', () => {
    assert.deepEqual(
      OPTIONAL.filter((name) => !(name in RECALL_VALUES)),
      [],
      'optional parameters of recall_memories without a value in RECALL_VALUES',
    );
    assert.ok(OPTIONAL.length >= 15, OPTIONAL.join());
  });

  for (const name of OPTIONAL) {
    it(`${name}: a question about something never stored still gets nothing`, async () => {
      const answer = await callOk<Recalled>(client, 'recall_memories', {
        user_id: 'alice',
        query: NEVER_STORED,
        ...optionArgs(name),
        ...(name in ABSTENTION_VALUES ? { [name]: ABSTENTION_VALUES[name] } : {}),
      });
      assert.deepEqual(
        answer.memories.map((memory) => memory.content),
        [],
        `${name}=${JSON.stringify(RECALL_VALUES[name])} brought back memories for a never-stored topic`,
      );
      assert.equal(answer.retrieval_breakdown.abstained, true);
    });

    it(`${name}: never returns another user's or another project's memory`, async () => {
      const answer = await callOk<Recalled>(client, 'recall_memories', {
        user_id: 'alice',
        query: `${VICTIM_WORD} deploy key parser service`,
        ...optionArgs(name),
      });
      const leaked = answer.memories.filter(
        (memory) => victimIds.includes(memory.memory_id) || memory.content.includes(VICTIM_WORD),
      );
      assert.deepEqual(leaked, [], `${name}=${JSON.stringify(RECALL_VALUES[name])} leaked the victim's memory`);
    });

    if (name !== 'limit') {
      it(`${name}: limit still bounds the answer`, async () => {
        const answer = await callOk<Recalled>(client, 'recall_memories', {
          user_id: 'alice',
          query: 'parser deploy release changelog pull requests',
          limit: 1,
          ...optionArgs(name),
        });
        assert.ok(answer.memories.length <= 1, `${name}: ${answer.memories.length} memories with limit 1`);
      });
    }
  }

  it('without options the same questions find alice’s own memories (the checks above are not vacuous)', async () => {
    const answer = await callOk<Recalled>(client, 'recall_memories', {
      user_id: 'alice',
      query: 'parser deploy release changelog pull requests',
      limit: 10,
      project_id: ALICE_PROJECT,
      team_id: 'platform',
      agent_id: 'copilot',
    });
    assert.ok(answer.memories.length >= 3, `${answer.memories.length} memories`);
    const victim = await callOk<Recalled>(client, 'recall_memories', {
      user_id: 'victim',
      query: `${VICTIM_WORD} deploy key parser service`,
      project_id: VICTIM_PROJECT,
    });
    assert.ok(victim.memories.length >= 2, 'the victim finds its own memories with the same query');
    const floored = await callOk<Recalled>(client, 'recall_memories', { user_id: 'alice', query: NEVER_STORED });
    assert.equal(floored.retrieval_breakdown.abstained, true);
    const unfloored = await callOk<Recalled>(client, 'recall_memories', {
      user_id: 'alice',
      query: NEVER_STORED,
      min_similarity: 0,
    });
    assert.ok(unfloored.memories.length >= 1, 'the never-stored question has a candidate under the floor');
  });

  /** A value for each optional parameter of get_relevant_context, chosen to widen what it packs. */
  const CONTEXT_VALUES: Record<string, Record<string, unknown>> = {
    token_budget: { token_budget: 8000 },
    query_intent: { query_intent: 'how_to' },
    context_weights: { context_weights: { semantic_project: 1, episodic_decisions: 1, procedural_workflows: 1 } },
    focus_entities: { focus_entities: ['parser', 'deploy', VICTIM_WORD] },
    layers: { layers: ['user', 'project', 'agent'], project_id: ALICE_PROJECT, agent_id: 'copilot' },
    agent_id: { agent_id: 'copilot' },
    project_id: { project_id: ALICE_PROJECT },
    team_id: { team_id: 'platform' },
    org_id: { org_id: 'acme' },
    company_id: { company_id: 'globex' },
  };
  const contextTool = TOOLS.find((tool) => tool.name === 'get_relevant_context')!;
  const CONTEXT_OPTIONAL = Object.keys(contextTool.input).filter(
    (name) => !['user_id', 'query', 'session_id'].includes(name),
  );

  it('has a widening value for every optional parameter get_relevant_context takes', () => {
    assert.deepEqual(
      CONTEXT_OPTIONAL.filter((name) => !(name in CONTEXT_VALUES)),
      [],
      'optional parameters of get_relevant_context without a value in CONTEXT_VALUES',
    );
  });

  for (const name of Object.keys(CONTEXT_VALUES)) {
    it(`get_relevant_context ${name}: packs no long-term memory for a never-stored topic, and never another user's`, async () => {
      const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: 'alice' });
      const ask = async (query: string) =>
        (
          await callOk<{ context_items: Array<{ source: string; memory_id?: string; content: string }> }>(
            client,
            'get_relevant_context',
            { user_id: 'alice', session_id, query, token_budget: 2000, ...CONTEXT_VALUES[name] },
          )
        ).context_items.filter((item) => item.source === 'long_term');
      assert.deepEqual(
        (await ask(NEVER_STORED)).map((item) => item.content),
        [],
        `${name} packed long-term memories for a never-stored topic`,
      );
      const leaked = (await ask(`${VICTIM_WORD} deploy key parser service`)).filter(
        (item) => victimIds.includes(item.memory_id ?? '') || item.content.includes(VICTIM_WORD),
      );
      assert.deepEqual(leaked, [], `${name} packed the victim's memory`);
    });
  }
});
