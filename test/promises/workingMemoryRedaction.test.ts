import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TiktokenCounter } from '../../src/core/tokens/tokenCounter.ts';
import { createTestCore } from '../support/testCore.ts';
import type { TestCore } from '../support/testCore.ts';
import { bytesOnDiskContain, cellsContaining } from './storeOnDisk.ts';

// Built at run time so the source file itself holds no secret-shaped string.
const secret = ['sk-', 'proj-', 'Zq9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe'].join('');
const metadataSecret = ['ghp_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');

describe('working memory keeps only the redacted content (seed 000 §10)', () => {
  let t: TestCore;
  let dbPath: string;
  before(async () => {
    t = await createTestCore();
    dbPath = join(t.dataDir, 'memory.db');
  });
  after(() => t.cleanup());

  it('stores, returns and checkpoints the redacted text: the secret is in no table and in no byte of the database files', async () => {
    const { session_id } = await t.core.initSession({ user_id: 'redact-user', config: { max_tokens: 600 } });
    const added = await t.core.addToWorkingMemory({
      session_id,
      content: `We decided the nightly deploy job authenticates with ${secret} from the staging environment`,
      content_type: 'message',
      metadata: { token: metadataSecret },
    });
    assert.deepEqual(added.redactions.map((entry) => entry.kind).sort(), ['github-token', 'openai-key'].sort());

    const stored = await t.store.listWorkingItems(session_id);
    const item = stored.find((entry) => entry.item_id === added.item_id);
    assert.ok(item, 'the item is stored');
    assert.ok(!item.content.includes(secret), 'the stored content is the redacted text');
    assert.match(
      item.content,
      /nightly deploy job authenticates with .+ from the staging environment/,
      'the rest of the text is kept',
    );
    assert.ok(!JSON.stringify(item.metadata).includes(metadataSecret), 'metadata is redacted too');
    assert.equal(
      item.token_count,
      new TiktokenCounter().count(item.content),
      'the token count is of the text kept, not of the secret',
    );

    const read = await t.core.getWorkingMemory({ session_id });
    assert.ok(!JSON.stringify(read).includes(secret));

    const checkpoint = await t.core.checkpointWorkingMemory({ session_id, force: true });
    assert.ok(checkpoint.memories_created + checkpoint.memories_updated > 0, 'the item reached long-term memory');
    await t.core.flushAccessLog();
    assert.deepEqual(cellsContaining(dbPath, secret), [], 'no table holds the secret');
    assert.deepEqual(cellsContaining(dbPath, metadataSecret), [], 'no table holds the metadata secret');
    assert.equal(bytesOnDiskContain(dbPath, secret), false, 'the secret was never written to the database files');
    assert.equal(bytesOnDiskContain(dbPath, metadataSecret), false);
  });
});
