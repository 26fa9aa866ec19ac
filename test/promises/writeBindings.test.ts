import assert from 'node:assert/strict';
import type { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOLS } from '../../src/mcp/toolCatalog.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Every tool of the catalog that writes (readOnlyHint false) against every binding a server can
 * have (SECURITY.md "Trust boundary", README "The fml command"): a server bound to alice in project
 * ALICE with team "alpha" configured, and the same server opened with `--read-project BOB`. Each
 * write tool must act for its own user and project, and refuse, changing nothing anywhere, a call
 * naming another user, another project (also one it may read), a team, org or company it was not
 * configured for, or another user's or project's memory and session ids. The write tools are
 * read from the catalog: a new write tool fails the first test until it has an own call here, and
 * then gets every check below without anyone writing one for it.
 */

const ALICE = 'github.com/alice/app';
const BOB = 'github.com/bob/private';
const episodic = { memory_category: 'episodic', memory_subtype: 'decision' } as const;

const WRITE_TOOLS = TOOLS.filter((tool) => !tool.annotations.readOnlyHint);
const READ_TOOLS = TOOLS.filter((tool) => tool.annotations.readOnlyHint);
const fieldsOf = (name: string): string[] => Object.keys(TOOLS.find((tool) => tool.name === name)!.input);

/** Alice's own memories, session and fact, stored afresh before each tool's checks. */
interface Own {
  memory: string;
  other: string;
  session: string;
  /** Alice's own export, as export_memories gives it: what import_memories takes back. */
  exported: Record<string, unknown>;
}
/**
 * Ids alice's server must not reach: bob's user memory and session, bob's memory of project BOB,
 * and alice's own memory of project BOB (stored from a server of that project): the user is hers,
 * so only the project check can refuse it.
 */
interface Foreign {
  userMemory: string;
  projectMemory: string;
  ownOtherProject: string;
  session: string;
}

/** A call each write tool accepts from alice on her own server: proves a refusal below is the binding's doing. */
const OWN_CALLS: Record<string, (own: Own) => Record<string, unknown>> = {
  init_session: () => ({}),
  add_to_working_memory: (own) => ({
    session_id: own.session,
    content: 'Alice is reviewing the parser',
    content_type: 'task_state',
  }),
  checkpoint_working_memory: (own) => ({ session_id: own.session, force: true }),
  clear_working_memory: (own) => ({ session_id: own.session }),
  store_memory: () => ({ content: 'We decided to ship the parser on Monday', ...episodic, layer: 'project' }),
  update_memory: (own) => ({ memory_id: own.memory, content: 'We decided to ship the parser on Tuesday' }),
  forget_memory: (own) => ({ memory_id: own.memory }),
  forget_all_user_memories: () => ({ confirmation: 'CONFIRM_DELETE_ALL' }),
  set_fact: () => ({ category: 'preference', key: 'editor', value: 'helix' }),
  delete_fact: () => ({ category: 'identity', key: 'name' }),
  supersede_memory: (own) => ({ memory_id: own.memory, superseded_by: own.other }),
  link_memories: (own) => ({ memory_id: own.memory, other_memory_id: own.other }),
  unlink_memories: (own) => ({ memory_id: own.memory, other_memory_id: own.other }),
  auto_link_similar: (own) => ({ memory_id: own.memory }),
  memory_prune: () => ({ older_than_days: 1, max_score: 1 }),
  run_daily_maintenance: () => ({ dry_run: true }),
  import_memories: (own) => ({ data: own.exported }),
  promote_memory: (own) => ({ memory_id: own.memory, to_layer: 'team' }),
};

/** The same call with every id argument pointed at what alice's server must not reach. */
function withForeignIds(
  args: Record<string, unknown>,
  foreign: Foreign,
  target: 'userMemory' | 'projectMemory' | 'ownOtherProject',
): Record<string, unknown> | null {
  const swapped = { ...args };
  let changed = false;
  for (const field of ['memory_id', 'other_memory_id', 'superseded_by'] as const) {
    if (field in swapped) {
      swapped[field] = foreign[target];
      changed = true;
    }
  }
  // Alice's own session is not another project's: only the memory ids are aimed there.
  if ('session_id' in swapped && target !== 'ownOtherProject') {
    swapped.session_id = foreign.session;
    changed = true;
  }
  return changed ? swapped : null;
}

describe('every write tool of the catalog against every binding of the server', () => {
  let test: TestCore;
  let db: DatabaseSync;
  let open: Client;
  let bound: Client;
  let reading: Client;
  const closers: Array<() => Promise<void>> = [];
  const foreign: Foreign = { userMemory: '', projectMemory: '', ownOtherProject: '', session: '' };

  /** Every row of every table: a refused call changes nothing, neither the victim's rows nor alice's. */
  const everything = (): string => {
    const tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as Array<{ name: string }>
    ).map((row) => row.name);
    return JSON.stringify(
      tables.map((table) => [
        table,
        db
          .prepare(`SELECT * FROM "${table}"`)
          .all()
          .map((row) => JSON.stringify(row))
          .sort(),
      ]),
    );
  };

  before(async () => {
    test = await createTestCore({ defaultProjectId: ALICE, config: { layerDefaults: { team_id: 'alpha' } } });
    db = (test.store as unknown as { connection: { db: DatabaseSync } }).connection.db;
    for (const [context, set] of [
      [{ core: test.core, adminTools: true }, (client: Client) => (open = client)],
      [{ core: test.core, defaultUserId: 'alice', adminTools: true }, (client: Client) => (bound = client)],
      [
        { core: test.core, defaultUserId: 'alice', adminTools: true, readableProjectIds: [BOB] },
        (client: Client) => (reading = client),
      ],
    ] as const) {
      const connected = await connectClient(context);
      set(connected.client);
      closers.push(connected.close);
    }
    foreign.userMemory = (
      await callOk<{ memory_id: string }>(open, 'store_memory', {
        user_id: 'bob',
        content: 'Bob decided the vault rotates on Monday',
        ...episodic,
      })
    ).memory_id;
    foreign.projectMemory = (
      await callOk<{ memory_id: string }>(open, 'store_memory', {
        user_id: 'bob',
        layer: 'project',
        project_id: BOB,
        content: 'Bob decided the private API moves to gRPC',
        ...episodic,
      })
    ).memory_id;
    foreign.ownOtherProject = (
      await callOk<{ memory_id: string }>(open, 'store_memory', {
        user_id: 'alice',
        layer: 'project',
        project_id: BOB,
        content: 'Alice noted the private API of project BOB is frozen',
        ...episodic,
      })
    ).memory_id;
    foreign.session = (await callOk<{ session_id: string }>(open, 'init_session', { user_id: 'bob' })).session_id;
    await callOk(open, 'add_to_working_memory', {
      user_id: 'bob',
      session_id: foreign.session,
      content: 'Bob is rotating the vault',
      content_type: 'task_state',
    });
    await callOk(open, 'set_fact', { user_id: 'bob', category: 'identity', key: 'name', value: 'Bob' });
  });
  after(async () => {
    for (const close of closers) await close();
    await test.cleanup();
  });

  async function freshOwn(): Promise<Own> {
    const memory = (
      await callOk<{ memory_id: string }>(bound, 'store_memory', {
        content: 'We decided the parser is hand-written',
        ...episodic,
      })
    ).memory_id;
    const other = (
      await callOk<{ memory_id: string }>(bound, 'store_memory', {
        content: 'Alice prefers small pull requests for the parser',
        memory_category: 'semantic',
        memory_subtype: 'user',
      })
    ).memory_id;
    const session = (await callOk<{ session_id: string }>(bound, 'init_session', {})).session_id;
    await callOk(bound, 'add_to_working_memory', {
      session_id: session,
      content: 'Remember: the parser must stay hand-written',
      content_type: 'task_state',
    });
    await callOk(bound, 'set_fact', { category: 'identity', key: 'name', value: 'Alice' });
    const exported = await callOk(bound, 'export_memories', {});
    return { memory, other, session, exported };
  }

  /**
   * Calls a tool that must be refused, and checks that nothing at all changed. With `expected`, the
   * typed error must name the field refused and its message what was refused.
   */
  async function refused(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    expected: { code: string; field: string; mentions: readonly string[]; omits?: string } | null,
    why: string,
  ): Promise<void> {
    const before = everything();
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    assert.ok(result.isError, `${tool} ${why}: accepted ${JSON.stringify(args)} → ${text.slice(0, 300)}`);
    if (expected) {
      const { error } = JSON.parse(text.split('\n')[1] ?? '{}') as {
        error: { code: string; message: string; details?: { field?: string } };
      };
      assert.equal(error.code, expected.code, `${tool} ${why}: ${text.slice(0, 200)}`);
      assert.equal(error.details?.field, expected.field, `${tool} ${why}: the error names no field`);
      for (const mention of expected.mentions)
        assert.ok(
          error.message.includes(mention),
          `${tool} ${why}: the message does not say ${mention}: ${error.message}`,
        );
      if (expected.omits) assert.ok(!error.message.includes(expected.omits), `${tool} ${why}: ${error.message}`);
    }
    assert.equal(everything(), before, `${tool} ${why}: a refused call changed the store`);
  }

  it('classifies tools from the catalog, and every write tool has an own call here', () => {
    assert.ok(
      WRITE_TOOLS.length >= 15 && READ_TOOLS.length >= 8,
      `${WRITE_TOOLS.length} write, ${READ_TOOLS.length} read`,
    );
    assert.deepEqual(
      WRITE_TOOLS.map((tool) => tool.name).filter((name) => !(name in OWN_CALLS)),
      [],
      'write tools without an own call in OWN_CALLS: add one and they get every check below',
    );
    assert.deepEqual(
      Object.keys(OWN_CALLS).filter((name) => !WRITE_TOOLS.some((tool) => tool.name === name)),
      [],
      'OWN_CALLS names a tool that is no longer a write tool of the catalog',
    );
  });

  for (const tool of WRITE_TOOLS) {
    it(`${tool.name}: acts for its own user and project, and refuses every other user, project, layer and id`, async () => {
      const fields = fieldsOf(tool.name);
      const own = await freshOwn();
      const args = OWN_CALLS[tool.name]?.(own);
      assert.ok(args, `${tool.name} has no own call`);
      const layer = fields.includes('layer') ? { layer: 'project' } : {};

      for (const [client, binding] of [
        [bound, 'bound to alice'],
        [reading, 'bound to alice with --read-project BOB'],
      ] as const) {
        const unauthorized = (field: string, ...mentions: string[]) => ({ code: 'UNAUTHORIZED', field, mentions });
        await refused(
          client,
          tool.name,
          { ...args, user_id: 'bob' },
          unauthorized('user_id', '"bob"'),
          `(${binding}) naming another user`,
        );
        if (fields.includes('project_id'))
          await refused(
            client,
            tool.name,
            { ...args, ...layer, project_id: BOB },
            unauthorized('project_id', `"${BOB}"`, `"${ALICE}"`, 'for writing'),
            `(${binding}) writing to project BOB`,
          );
        for (const [field, value] of [
          ['team_id', 'beta'],
          ['org_id', 'acme'],
          ['company_id', 'globex'],
        ] as const) {
          if (fields.includes(field))
            await refused(
              client,
              tool.name,
              { ...args, [field]: value },
              unauthorized(field, field, ...(field === 'team_id' ? [`"${value}"`, '"alpha"'] : [])),
              `(${binding}) naming ${field} "${value}" it was not configured for`,
            );
        }
        for (const [target, what] of [
          ['userMemory', "bob's memory and session"],
          ['projectMemory', "bob's project memory and session"],
          ['ownOtherProject', "alice's own memory of project BOB"],
        ] as const) {
          const aimed = withForeignIds(args, foreign, target);
          if (aimed) await refused(client, tool.name, aimed, null, `(${binding}) aimed at ${what}`);
        }
      }
      // The same call naming its own user (and team, where it takes one) is accepted: the refusals
      // above are the binding's.
      const named = { ...args, user_id: 'alice', ...(fields.includes('team_id') ? { team_id: 'alpha' } : {}) };
      const result = await bound.callTool({ name: tool.name, arguments: named });
      assert.ok(!result.isError, `${tool.name}: own call refused: ${JSON.stringify(result.content).slice(0, 300)}`);
    });
  }

  it('the read-only project is readable by every read tool that names a project, and the write tools above could not touch it', async () => {
    const readers = READ_TOOLS.filter((tool) => fieldsOf(tool.name).includes('project_id'));
    assert.ok(readers.length >= 3, readers.map((tool) => tool.name).join());
    const found = await callOk<{ memories: Array<{ memory_id: string }> }>(reading, 'recall_memories', {
      query: 'private API gRPC',
      project_id: BOB,
    });
    assert.ok(found.memories.some((memory) => memory.memory_id === foreign.projectMemory));
    const session = (await callOk<{ session_id: string }>(reading, 'init_session', {})).session_id;
    const READ_CALLS: Record<string, Record<string, unknown>> = {
      recall_memories: { query: 'private API gRPC' },
      get_relevant_context: { session_id: session, query: 'private API gRPC', token_budget: 2000 },
      get_facts: {},
    };
    for (const tool of readers) {
      const base = READ_CALLS[tool.name];
      assert.ok(base, `${tool.name} reads a project and has no call in READ_CALLS`);
      const result = await reading.callTool({ name: tool.name, arguments: { ...base, project_id: BOB } });
      assert.ok(!result.isError, `${tool.name} refused reading project BOB opened with --read-project`);
      await refused(
        bound,
        tool.name,
        { ...base, project_id: BOB },
        { code: 'UNAUTHORIZED', field: 'project_id', mentions: [`"${BOB}"`], omits: 'for writing' },
        'reading project BOB not opened for reading',
      );
    }
    const [memory] = await test.core.getMemories(`project:${BOB}`, [foreign.projectMemory]);
    assert.equal(memory.content, 'Bob decided the private API moves to gRPC');
    assert.equal(memory.deleted_at ?? null, null);
  });

  it('a bound server keeps an agent the call names, and fills in only what the call leaves out', async () => {
    const agentCore = await createTestCore({
      defaultProjectId: ALICE,
      config: { layerDefaults: { agent_id: 'copilot' } },
    });
    const { client, close } = await connectClient({ core: agentCore.core, defaultUserId: 'alice' });
    try {
      const named = await callOk<{ memory_id: string }>(client, 'store_memory', {
        content: 'The reviewer agent checks naming',
        ...episodic,
        layer: 'agent',
        agent_id: 'reviewer',
      });
      const implied = await callOk<{ memory_id: string }>(client, 'store_memory', {
        content: 'The default agent writes the changelog',
        ...episodic,
        layer: 'agent',
      });
      const scopes = (await agentCore.core.getMemories('alice', [named.memory_id, implied.memory_id])).map((memory) => [
        memory.memory_id,
        memory.scope_id,
      ]);
      assert.deepEqual(
        new Map(scopes as Array<[string, string]>),
        new Map([
          [named.memory_id, 'reviewer'],
          [implied.memory_id, 'copilot'],
        ]),
      );
    } finally {
      await close();
      await agentCore.cleanup();
    }
  });

  it('a bound server started for no project refuses every project it is named, saying it has none', async () => {
    const noProject = await createTestCore();
    const { client, close } = await connectClient({ core: noProject.core, defaultUserId: 'alice', adminTools: true });
    try {
      for (const tool of WRITE_TOOLS.filter((candidate) => fieldsOf(candidate.name).includes('project_id'))) {
        const result = await client.callTool({
          name: tool.name,
          arguments: {
            ...OWN_CALLS[tool.name]!({ memory: 'mem_x', other: 'mem_y', session: 'sess_x', exported: {} }),
            layer: 'project',
            project_id: BOB,
          },
        });
        const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
        assert.ok(
          text.startsWith('UNAUTHORIZED:') && text.includes('no project') && text.includes(BOB),
          `${tool.name}: ${text.slice(0, 200)}`,
        );
      }
    } finally {
      await close();
      await noProject.cleanup();
    }
  });

  it('an unbound server needs user_id from every write tool that takes no session, naming the field', async () => {
    const own = await freshOwn();
    for (const tool of WRITE_TOOLS.filter(
      (candidate) =>
        !fieldsOf(candidate.name).includes('session_id') ||
        candidate.name === 'store_memory' ||
        candidate.name === 'set_fact',
    )) {
      const args = OWN_CALLS[tool.name]!(own);
      const result = await open.callTool({ name: tool.name, arguments: args });
      const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
      const { error } = JSON.parse(text.split('\n')[1] ?? '{}') as {
        error?: { code: string; message: string; details?: { field?: string } };
      };
      assert.equal(error?.code, 'MISSING_IDENTIFIER', `${tool.name}: ${text.slice(0, 200)}`);
      assert.equal(error?.details?.field, 'user_id', tool.name);
      assert.match(error?.message ?? '', /user_id is required/, tool.name);
    }
  });

  it('on an unbound server a session id alone opens the session, and a named owner must match it', async () => {
    const session = (await callOk<{ session_id: string }>(open, 'init_session', { user_id: 'carol' })).session_id;
    await callOk(open, 'add_to_working_memory', {
      session_id: session,
      content: 'Carol reviews the lexer',
      content_type: 'task_state',
    });
    await callOk(open, 'add_to_working_memory', {
      session_id: session,
      user_id: 'carol',
      content: 'Carol owns the lexer',
      content_type: 'task_state',
    });
    const other = await open.callTool({
      name: 'add_to_working_memory',
      arguments: { session_id: session, user_id: 'mallory', content: 'Mallory was here', content_type: 'task_state' },
    });
    assert.ok(other.isError);
    const items = await callOk<{ items: Array<{ content: string }> }>(open, 'get_working_memory', {
      session_id: session,
    });
    assert.deepEqual(items.items.map((item) => item.content).sort(), [
      'Carol owns the lexer',
      'Carol reviews the lexer',
    ]);
  });
});
