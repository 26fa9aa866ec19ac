import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../src/core/portability/exportFormat.ts';
import { callOk, connectClient, createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * Every way content enters memory, fed the credentials of issue 13 (a private key with its body,
 * an AWS secret in prose, a GitLab token, SECRET_KEY=…). What is stored is read back through the
 * store, and after the server stops the raw files of the data directory are searched: a secret
 * that never reached the store cannot be recovered from it.
 */

// Assembled from parts so this file never itself looks like it holds a credential.
const j = (...parts: string[]): string => parts.join('');
const KEY_BODY = [
  'MIIEowIBAAKCAQEAq7Zb3Lk9xW2mN4pR8sT1vY6uH0jG5fD3cA9eB2iK7lM1nO4',
  'pQ8rS2tU6vW0xY3zA5bC7dE9fG1hI3jK5lM7nO9pQ1rS3tU5vW7xY9zA1bC3dE5',
];
const PRIVATE_KEY = j(
  '-----BEGIN ',
  'RSA PRIVATE KEY-----\n',
  KEY_BODY.join('\n'),
  '\n-----END ',
  'RSA PRIVATE KEY-----',
);
const AWS_SECRET = j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCY7q2Zk9Lm4W');
const GITLAB = j('gl', 'pat-', 'Zq8Lm3Nx7Vb2Kc9Rt4Wy');
const DJANGO = j('django-insecure-', 'k2!x9@m7#q4zL8');
const FIELD_PASSWORD = j('Pw-metadata-', '9xQ');
const FACT_PASSWORD = j('Fact-pw-', '7Qz');
/** Strings that must appear nowhere: the key body lines, not just its BEGIN line. */
const SECRETS = [KEY_BODY[0], KEY_BODY[1], AWS_SECRET, GITLAB, DJANGO, FIELD_PASSWORD, FACT_PASSWORD];
const PAYLOAD = `deploy key:\n${PRIVATE_KEY}\nMy AWS secret key is ${AWS_SECRET} and GITLAB_TOKEN=${GITLAB}; SECRET_KEY='${DJANGO}'`;

function assertNoSecret(value: unknown, where: string): void {
  const text = JSON.stringify(value);
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds ${secret.slice(0, 12)}…`);
}

describe('no entry point stores a credential', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fml-secrets-'));
  let test: TestCore;
  let connection: Awaited<ReturnType<typeof connectClient>>;

  before(async () => {
    test = await createTestCore({ dataDir });
    connection = await connectClient({ core: test.core, adminTools: true });
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('redacts on store, update, working memory, facts and import, and the raw data files hold none of it', async () => {
    const { client } = connection;
    const user = 'carol';
    const stored = await callOk<{ memory_id: string; redactions: Array<{ kind: string; count: number }> }>(
      client,
      'store_memory',
      {
        user_id: user,
        content: PAYLOAD,
        memory_category: 'semantic',
        memory_subtype: 'environment',
        metadata: { note: PAYLOAD, db: { password: FIELD_PASSWORD } },
        entities: [j('token:', GITLAB)],
      },
    );
    const kinds = stored.redactions.map((entry) => entry.kind).sort();
    assert.deepEqual(kinds, [
      'aws-secret-key',
      'gitlab-token',
      'password-assignment',
      'private-key-block',
      'secret-assignment',
    ]);

    const updatable = await callOk<{ memory_id: string }>(client, 'store_memory', {
      user_id: user,
      content: 'Staging runs on k8s',
      memory_category: 'semantic',
      memory_subtype: 'environment',
    });
    await callOk(client, 'update_memory', {
      user_id: user,
      memory_id: updatable.memory_id,
      content: PAYLOAD,
      metadata: { why: PAYLOAD },
      tags: [GITLAB],
      entities: [AWS_SECRET],
    });

    const { session_id } = await callOk<{ session_id: string }>(client, 'init_session', { user_id: user });
    await callOk(client, 'add_to_working_memory', {
      session_id,
      user_id: user,
      content: PAYLOAD,
      content_type: 'scratchpad',
      metadata: { pasted: PAYLOAD },
    });
    await callOk(client, 'set_fact', {
      user_id: user,
      category: 'constraint',
      key: 'gitlab_token',
      value: `the token is ${GITLAB}`,
    });
    // A bare value is a secret by the fact's key, as a metadata field is by its key.
    const fact = await callOk<{ redactions: Array<{ kind: string; count: number }> }>(client, 'set_fact', {
      user_id: user,
      category: 'constraint',
      key: 'staging_db_password',
      value: FACT_PASSWORD,
    });
    assert.deepEqual(fact.redactions, [{ kind: 'password-assignment', count: 1 }]);

    const now = new Date().toISOString();
    await callOk(client, 'import_memories', {
      user_id: user,
      data: {
        format: EXPORT_FORMAT,
        format_version: EXPORT_FORMAT_VERSION,
        memories: [
          {
            memory_id: 'mem_imported',
            content: PAYLOAD,
            memory_category: 'semantic',
            memory_subtype: 'environment',
            created_at: now,
            metadata: { from: PAYLOAD },
          },
        ],
        sessions: [
          {
            session_id: 'sess_imported',
            org_id: null,
            project_id: null,
            max_tokens: 8000,
            next_sequence: 2,
            total_tokens: 10,
            eviction_policy: 'hybrid',
            created_at: now,
            last_activity: now,
            expires_at: null,
            config: { task: PAYLOAD },
          },
        ],
        working_items: [
          {
            item_id: 'wmi_imported',
            session_id: 'sess_imported',
            content_type: 'scratchpad',
            content: PAYLOAD,
            token_count: 10,
            relevance_score: 0.5,
            pinned: false,
            sequence_num: 1,
            created_at: now,
            last_accessed: now,
            metadata: { also: PAYLOAD },
          },
        ],
      },
    });

    // What is stored, read back through the store.
    const memories = (
      await test.store.listMemories({ filter: { user_id: user, state: 'all' }, sort: 'created', offset: 0, limit: 100 })
    ).items;
    assert.ok(memories.length >= 4);
    for (const memory of memories) assertNoSecret(memory, `memory ${memory.memory_id}`);
    assert.ok(
      memories.some((memory) =>
        memory.content.includes(
          'deploy key:\n[REDACTED:private-key-block]\nMy AWS secret key is [REDACTED:aws-secret-key]',
        ),
      ),
    );
    for (const session of await test.core.listSessions(user)) {
      assertNoSecret(session, `session ${session.session_id}`);
      const items = await test.store.listWorkingItems(session.session_id);
      assert.ok(items.length > 0);
      for (const item of items) assertNoSecret(item, `working item ${item.item_id}`);
    }

    await connection.close();
    await test.core.close();
    // The raw bytes of every file of the data directory (database, WAL, shared memory, logs).
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    assert.ok(files.length > 0);
    for (const file of files) {
      const bytes = readFileSync(join(file.parentPath, file.name)).toString('latin1');
      for (const secret of SECRETS) assert.ok(!bytes.includes(secret), `${file.name} holds ${secret.slice(0, 12)}…`);
    }
    assert.ok(
      files.some((file) =>
        readFileSync(join(file.parentPath, file.name)).toString('latin1').includes('[REDACTED:private-key-block]'),
      ),
      'the redacted text itself was stored',
    );
  });
});
