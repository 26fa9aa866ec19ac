import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../src/core/domain/errors.ts';
import { exportPage, type ExportPage } from '../../src/core/portability/exportPages.ts';
import { exportMemories } from '../../src/core/portability/exportMemories.ts';
import { memoryRecord } from '../support/memoryRecord.ts';
import { createTestCore, type TestCore } from '../support/testCore.ts';

/**
 * export_memories pages (SECURITY.md "Answers too big", README GDPR): the pages of any size,
 * concatenated, are the whole export, every record exactly once, in order, each page within its
 * size unless one record alone is larger, with counts that are the totals; a forgotten memory and
 * another user's records are where they belong. Small page sizes put every edge (a page full to the
 * byte, the 200-record read batch, the turn from memories to sessions) within a few records.
 */

describe('export pages at every edge', () => {
  let test: TestCore;
  let whole: Awaited<ReturnType<typeof exportMemories>>;

  before(async () => {
    test = await createTestCore();
    // 205 memories: one more read batch (200) and a few; one forgotten; two sessions with items.
    // Written straight to the store (the write path is not what is tested here; through
    // storeMemory the 205 took 4 s of this file's 8), one millisecond apart so their order is fixed.
    for (let index = 0; index < 205; index++)
      await test.store.insertMemory(
        memoryRecord(new Date(Date.UTC(2026, 0, 1) + index).toISOString(), {
          memory_id: `seed-${String(index).padStart(3, '0')}`,
          content: `Fact number ${index}: the service ${index % 7} listens on port ${8000 + index}`,
        }),
        null,
      );
    // One memory superseded by a newer one: an export holds both, the old one flagged by superseded_by.
    await test.core.storeMemory({
      user_id: 'u',
      content: 'Fact number 0 corrected: the service 0 listens on port 9000',
      memory_category: 'semantic',
      memory_subtype: 'project',
      supersedes: 'seed-000',
    });
    const forgotten = await test.core.storeMemory({
      user_id: 'u',
      content: 'The old deploy script lived in ops/deploy.sh',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    await test.core.forgetMemory({ user_id: 'u', memory_id: forgotten.memory_id });
    for (const name of ['one', 'two']) {
      const { session_id } = await test.core.initSession({ user_id: 'u' });
      for (let index = 0; index < 3; index++)
        await test.core.addToWorkingMemory({
          user_id: 'u',
          session_id,
          content: `Session ${name} item ${index}: reviewing the parser`,
          content_type: 'message',
        });
    }
    await test.core.storeMemory({
      user_id: 'other',
      content: 'Another user entirely',
      memory_category: 'semantic',
      memory_subtype: 'project',
    });
    whole = await exportMemories(test.deps, 'u');
  });
  after(async () => test.cleanup());

  async function allPages(pageBytes: number): Promise<ExportPage[]> {
    const pages: ExportPage[] = [];
    let cursor: string | undefined;
    do {
      const page = await exportPage(test.deps, 'u', cursor, pageBytes);
      pages.push(page);
      cursor = page.next_cursor ?? undefined;
      assert.ok(pages.length < 10_000, 'paging does not end');
    } while (cursor !== undefined);
    return pages;
  }

  const ids = (records: ReadonlyArray<{ memory_id?: string; session_id?: string; item_id?: string }>) =>
    records.map((record) => record.memory_id ?? record.item_id ?? record.session_id);

  it('the whole export holds every record of the user once, and counts them', () => {
    assert.equal(whole.memories.length, 207);
    assert.equal(whole.counts.memories, 207);
    assert.equal(whole.counts.deleted_memories, 1);
    assert.equal(whole.memories.filter((memory) => memory.deleted).length, 1);
    assert.equal(whole.counts.sessions, 2);
    assert.equal(whole.counts.working_items, 6);
    assert.equal(whole.working_items.length, 6);
    assert.ok(whole.memories.every((memory) => memory.user_id === 'u'));
    assert.equal(new Set(ids(whole.memories)).size, 207);
    assert.equal(whole.memories.filter((memory) => memory.superseded_by !== null).length, 1);
  });

  for (const pageBytes of [1, 600, 5_000, 64_000, 10_000_000]) {
    it(`pages of ${pageBytes} bytes concatenate to the whole export, each within its size`, async () => {
      const pages = await allPages(pageBytes);
      assert.deepEqual(ids(pages.flatMap((page) => page.memories)), ids(whole.memories));
      assert.deepEqual(ids(pages.flatMap((page) => page.sessions)), ids(whole.sessions));
      assert.deepEqual(ids(pages.flatMap((page) => page.working_items)), ids(whole.working_items));
      assert.deepEqual(
        pages.flatMap((page) => page.memories.map((memory) => memory.deleted)),
        whole.memories.map((memory) => memory.deleted),
        'the forgotten memory is flagged deleted on its page, and no other',
      );
      for (const page of pages) {
        assert.deepEqual(page.counts, whole.counts, 'counts are the totals on every page');
        const records = page.memories.length + page.sessions.length;
        assert.ok(records >= 1, 'a page holds at least one record, so it advances');
        const bytes =
          page.memories.reduce((total, memory) => total + Buffer.byteLength(JSON.stringify(memory)), 0) +
          page.sessions.reduce((total, session) => total + Buffer.byteLength(JSON.stringify(session)), 0) +
          Buffer.byteLength(JSON.stringify(page.working_items)) * (page.sessions.length > 0 ? 1 : 0);
        if (records > 1) assert.ok(bytes <= pageBytes + 200, `a page of ${records} records holds ${bytes} bytes`);
      }
      if (pageBytes >= 10_000_000) assert.equal(pages.length, 1, 'everything fits one page');
      if (pageBytes === 1) assert.equal(pages.length, 207 + 2, 'one record a page');
      assert.equal(pages.at(-1)!.next_cursor, null);
    });
  }

  it('a page is filled to the byte: one more byte of room takes one more record', async () => {
    const first = whole.memories.slice(0, 3).map((memory) => Buffer.byteLength(JSON.stringify(memory)));
    const exact = first[0]! + first[1]!;
    assert.equal((await exportPage(test.deps, 'u', undefined, exact)).memories.length, 2);
    assert.equal((await exportPage(test.deps, 'u', undefined, exact - 1)).memories.length, 1);
    assert.equal((await exportPage(test.deps, 'u', undefined, exact + first[2]!)).memories.length, 3);
  });

  it('an empty cursor is the first page; an empty user id is refused, naming user_id', async () => {
    assert.deepEqual(
      ids((await exportPage(test.deps, 'u', '', 600)).memories),
      ids((await exportPage(test.deps, 'u', undefined, 600)).memories),
    );
    await assert.rejects(
      exportMemories(test.deps, ''),
      (error: unknown) =>
        MemoryError.is(error, 'MISSING_IDENTIFIER') && (error as MemoryError).details?.field === 'user_id',
    );
    await assert.rejects(
      exportPage(test.deps, '', undefined),
      (error: unknown) =>
        MemoryError.is(error, 'MISSING_IDENTIFIER') && (error as MemoryError).details?.field === 'user_id',
    );
  });

  it('refuses a cursor it did not hand out, naming the field', async () => {
    for (const cursor of ['x1', 'm', 'm-1', 'm1.5', ' m1', 'm1 ', 's1x', 'm1234567890123']) {
      await assert.rejects(
        exportPage(test.deps, 'u', cursor),
        (error: unknown) =>
          MemoryError.is(error, 'INVALID_INPUT') &&
          (error as MemoryError).details?.field === 'cursor' &&
          (error as MemoryError).message.includes('next_cursor of a previous export_memories page'),
        cursor,
      );
    }
    const sessionsOnly = await exportPage(test.deps, 'u', 's0', 10_000_000);
    assert.deepEqual(sessionsOnly.memories, []);
    assert.equal(sessionsOnly.sessions.length, 2);
    assert.equal(sessionsOnly.next_cursor, null);
    const past = await exportPage(test.deps, 'u', 's2');
    assert.deepEqual([past.memories.length, past.sessions.length, past.next_cursor], [0, 0, null]);
  });
});
