import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rankingFactsOf } from '../../src/core/domain/rankingFacts.ts';
import type { MemoryRecord } from '../../src/core/domain/records.ts';
import type { MemoryFilter, MemoryStore } from '../../src/core/ports/memoryStore.ts';
import { duplicateCandidateOf } from '../../src/core/ports/duplicateGuard.ts';
import { analyzeQuery } from '../../src/core/text/analyzer.ts';
import {
  MODEL,
  OTHER_MODEL,
  cosineOf,
  embedding,
  iso,
  makeAccess,
  makeMemory,
  makeSession,
  makeWorkingItem,
  newId,
  newUserId,
  randomUnitVector,
  seededRandom,
  vectorNear,
} from './fixtures.ts';
import { rewriteMemory } from '../support/rewriteMemory.ts';

export interface StoreUnderTest {
  store: MemoryStore;
  cleanup(): Promise<void>;
}

/**
 * The behaviour every MemoryStore backend must show, written against the port only. One store
 * serves each describe block; every test works under fresh random user ids, so a factory may
 * hand out a shared database.
 */
export function runMemoryStoreContract(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`MemoryStore contract: ${name}`, () => {
    let subject: StoreUnderTest;
    const store = (): MemoryStore => subject.store;

    before(async () => {
      subject = await makeStore();
    });
    after(async () => {
      await subject.cleanup();
    });

    async function insertAll(memories: readonly MemoryRecord[]): Promise<void> {
      for (const memory of memories) await store().insertMemory(memory, null);
    }

    async function listIds(
      filter: MemoryFilter,
      sort: 'recency' | 'importance' | 'access_count' | 'created' = 'created',
    ): Promise<string[]> {
      const result = await store().listMemories({ filter, sort, offset: 0, limit: 1000 });
      return result.items.map((m) => m.memory_id);
    }

    function sorted(ids: readonly string[]): string[] {
      return [...ids].sort();
    }

    async function assertMissing(operation: Promise<unknown>): Promise<void> {
      try {
        await operation;
      } catch (error) {
        assert.equal(
          (error as { code?: string }).code,
          'MEMORY_NOT_FOUND',
          `expected MEMORY_NOT_FOUND, got ${String(error)}`,
        );
      }
    }

    describe('lifecycle', () => {
      it('reports a kind and a healthy status once open', async () => {
        assert.equal(typeof store().kind, 'string');
        assert.ok(store().kind.length > 0);
        const health = await store().health();
        assert.equal(health.status, 'healthy');
        assert.ok(health.latency_ms >= 0);
      });

      it('changes the change token after a write', async () => {
        const user = newUserId();
        const first = await store().changeToken();
        await store().insertMemory(makeMemory(user), null);
        const second = await store().changeToken();
        assert.notEqual(second, first);
        const session = makeSession(user);
        await store().commitWorking({ session, upsert: [], delete: [] });
        assert.notEqual(await store().changeToken(), second);
      });
    });

    describe('memory rows', () => {
      it('round-trips every field of a memory', async () => {
        const user = newUserId();
        const memory = makeMemory(user, {
          org_id: 'org_1',
          project_id: 'proj_a',
          memory_category: 'episodic',
          memory_subtype: 'decision',
          content: 'Decided to use SQLite in WAL mode.',
          summary: 'SQLite WAL',
          entities: ['database:sqlite', 'file:store.ts'],
          tags: ['storage', 'decision'],
          metadata: { reasoning: 'two processes', nested: { n: 1, list: [1, 'two', null] } },
          event_time: iso(3, 12),
          is_temporal: true,
          importance: 0.75,
          access_count: 4,
          decay_factor: 0.9,
          related_memories: ['mem_a', 'mem_b'],
          supersedes: 'mem_old',
          source_session: 'sess_1',
          source_type: 'conversation',
          confidence: 0.6,
          pinned: true,
          embedding_model: MODEL,
          created_at: iso(3),
          last_accessed: iso(4),
          updated_at: iso(4),
        });
        const vector = randomUnitVector(8, seededRandom(1));
        await store().insertMemory(memory, embedding(vector));
        const [stored] = await store().getMemories(user, [memory.memory_id]);
        assert.deepEqual(stored, memory);
        const embeddings = await store().getEmbeddings(user, [memory.memory_id]);
        assert.equal(embeddings.get(memory.memory_id)?.model, MODEL);
        assert.deepEqual([...embeddings.get(memory.memory_id)!.vector], [...vector]);
      });

      it('round-trips hostile and unicode strings unchanged', async () => {
        const user = newUserId();
        const hostile = [
          `It's "quoted" and \\backslashed\\ and \`ticked\``,
          'control:\t\r\n\u0001\u0007\u001f end',
          'emoji 🧠🔥 and CJK 記憶 and RTL שלום and combining é',
          "$1 $& $' -- DROP TABLE long_term_memories; /* comment */ ' OR 1=1 --",
          '%_ LIKE wildcards %% and json {"a": [1, 2]} and <script>alert(1)</script>',
        ];
        const memories = hostile.map((text, i) =>
          makeMemory(user, {
            content: text,
            summary: text,
            entities: [text, `file:${text}`],
            tags: [text],
            metadata: { text, [text]: text },
            source_session: text,
            created_at: iso(i),
          }),
        );
        await insertAll(memories);
        const stored = await store().getMemories(
          user,
          memories.map((m) => m.memory_id),
        );
        assert.equal(stored.length, memories.length);
        for (const memory of memories) {
          assert.deepEqual(
            stored.find((m) => m.memory_id === memory.memory_id),
            memory,
          );
        }
        const tagged = await listIds({ user_id: user, tags: [hostile[3]] });
        assert.deepEqual(tagged, [memories[3].memory_id]);
        const entity = await listIds({ user_id: user, entities: [hostile[2]] });
        assert.deepEqual(entity, [memories[2].memory_id]);
      });

      it('getMemories omits missing ids, includes deleted rows and ignores other users', async () => {
        const user = newUserId();
        const other = newUserId();
        const live = makeMemory(user);
        const trashed = makeMemory(user, { deleted_at: iso(2) });
        const foreign = makeMemory(other);
        await insertAll([live, trashed, foreign]);
        const rows = await store().getMemories(user, [
          live.memory_id,
          trashed.memory_id,
          foreign.memory_id,
          newId('mem'),
        ]);
        assert.deepEqual(sorted(rows.map((m) => m.memory_id)), sorted([live.memory_id, trashed.memory_id]));
        assert.deepEqual(await store().getMemories(user, []), []);
      });

      it('a change sets fields, raises the version and keeps, removes or replaces the embedding', async () => {
        const user = newUserId();
        const random = seededRandom(2);
        const first = randomUnitVector(8, random);
        const second = randomUnitVector(8, random);
        const memory = makeMemory(user, { embedding_model: MODEL });
        await store().insertMemory(memory, embedding(first));

        const edited = { ...memory, content: 'Edited content', importance: 0.9, updated_at: iso(1) };
        await rewriteMemory(store(), edited);
        assert.deepEqual((await store().getMemories(user, [memory.memory_id]))[0], { ...edited, version: 2 });
        assert.deepEqual(
          [...(await store().getEmbeddings(user, [memory.memory_id])).get(memory.memory_id)!.vector],
          [...first],
        );

        const reembedded = { ...edited, embedding_model: OTHER_MODEL, updated_at: iso(2) };
        await rewriteMemory(store(), reembedded, embedding(second, OTHER_MODEL));
        const replaced = (await store().getEmbeddings(user, [memory.memory_id])).get(memory.memory_id)!;
        assert.equal(replaced.model, OTHER_MODEL);
        assert.deepEqual([...replaced.vector], [...second]);

        const unembedded = { ...reembedded, embedding_model: null, updated_at: iso(3) };
        await rewriteMemory(store(), unembedded, null);
        assert.equal((await store().getEmbeddings(user, [memory.memory_id])).size, 0);
        assert.deepEqual((await store().getMemories(user, [memory.memory_id]))[0], { ...unembedded, version: 4 });
      });

      it("a change never reaches another user's memory", async () => {
        const owner = newUserId();
        const intruder = newUserId();
        const memory = makeMemory(owner, { content: 'original' });
        await store().insertMemory(memory, null);
        await assertMissing(rewriteMemory(store(), { ...memory, user_id: intruder, content: 'hijacked' }));
        assert.equal((await store().getMemories(owner, [memory.memory_id]))[0].content, 'original');
        assert.deepEqual(await store().getMemories(intruder, [memory.memory_id]), []);
      });

      it('hardDeleteMemory removes the row, its embedding and access log; other users cannot', async () => {
        const user = newUserId();
        const memory = makeMemory(user, { content: 'quokka habitat notes', embedding_model: MODEL });
        await store().insertMemory(memory, embedding(randomUnitVector(8, seededRandom(3))));
        await store().recordAccess([makeAccess(memory)]);
        assert.equal(await store().hardDeleteMemory(newUserId(), memory.memory_id), false);
        assert.equal((await store().getMemories(user, [memory.memory_id])).length, 1);
        assert.equal(await store().hardDeleteMemory(user, memory.memory_id), true);
        assert.equal(await store().hardDeleteMemory(user, memory.memory_id), false);
        assert.deepEqual(await store().getMemories(user, [memory.memory_id]), []);
        assert.equal((await store().getEmbeddings(user, [memory.memory_id])).size, 0);
        const stats = await store().stats(user);
        assert.equal(stats.access_log_entries, 0);
        assert.equal(stats.memories + stats.deleted, 0);
      });
    });

    describe('listMemories filters', () => {
      const user = newUserId();
      const m = {
        projectA: makeMemory(user, {
          project_id: 'proj_a',
          memory_category: 'procedural',
          memory_subtype: 'workflow',
          created_at: iso(1),
        }),
        projectB: makeMemory(user, {
          project_id: 'proj_b',
          memory_category: 'procedural',
          memory_subtype: 'debugging',
          created_at: iso(2),
        }),
        global: makeMemory(user, { memory_category: 'preference', memory_subtype: 'style', created_at: iso(3) }),
        entityTag: makeMemory(user, {
          entities: ['table:users', 'file:api.py'],
          tags: ['backend'],
          created_at: iso(4),
        }),
        evented: makeMemory(user, {
          memory_category: 'episodic',
          memory_subtype: 'event',
          event_time: iso(20),
          created_at: iso(5),
        }),
        lowConfidence: makeMemory(user, { confidence: 0.3, source_type: 'inferred', created_at: iso(6) }),
        pinned: makeMemory(user, { pinned: true, source_type: 'observed', created_at: iso(7) }),
        trashed: makeMemory(user, { deleted_at: iso(9), created_at: iso(8) }),
        superseded: makeMemory(user, { superseded_by: 'mem_newer', created_at: iso(9) }),
      };
      const all = Object.values(m);
      const ids = (...memories: MemoryRecord[]): string[] => sorted(memories.map((x) => x.memory_id));
      const liveVisible = all.filter((x) => x !== m.trashed && x !== m.superseded);

      before(async () => {
        await insertAll(all);
        await insertAll([makeMemory(newUserId(), { project_id: 'proj_a', tags: ['backend'] })]);
      });

      it('defaults to live, non-superseded rows of the user', async () => {
        assert.deepEqual(sorted(await listIds({ user_id: user })), ids(...liveVisible));
      });

      it('state selects live, deleted or all rows', async () => {
        assert.deepEqual(sorted(await listIds({ user_id: user, state: 'deleted' })), ids(m.trashed));
        assert.deepEqual(sorted(await listIds({ user_id: user, state: 'all' })), ids(...liveVisible, m.trashed));
        assert.deepEqual(sorted(await listIds({ user_id: user, state: 'live' })), ids(...liveVisible));
      });

      it('include_superseded shows superseded rows', async () => {
        assert.deepEqual(
          sorted(await listIds({ user_id: user, include_superseded: true })),
          ids(...liveVisible, m.superseded),
        );
      });

      it('project_id keeps that project and user-wide rows', async () => {
        const expected = liveVisible.filter((x) => x.project_id === null || x.project_id === 'proj_a');
        assert.deepEqual(sorted(await listIds({ user_id: user, project_id: 'proj_a' })), ids(...expected));
        assert.ok(!expected.includes(m.projectB));
      });

      it('categories and subtypes', async () => {
        assert.deepEqual(
          sorted(await listIds({ user_id: user, categories: ['procedural'] })),
          ids(m.projectA, m.projectB),
        );
        assert.deepEqual(
          sorted(await listIds({ user_id: user, categories: ['procedural', 'preference'] })),
          ids(m.projectA, m.projectB, m.global),
        );
        assert.deepEqual(
          sorted(await listIds({ user_id: user, subtypes: ['debugging', 'style'] })),
          ids(m.projectB, m.global),
        );
        assert.deepEqual(await listIds({ user_id: user, categories: ['procedural'], subtypes: ['style'] }), []);
      });

      it('entities and tags match any-of, exactly', async () => {
        assert.deepEqual(await listIds({ user_id: user, entities: ['file:api.py', 'nope'] }), [m.entityTag.memory_id]);
        assert.deepEqual(await listIds({ user_id: user, entities: ['file:api'] }), []);
        assert.deepEqual(await listIds({ user_id: user, tags: ['backend'] }), [m.entityTag.memory_id]);
        assert.deepEqual(await listIds({ user_id: user, tags: ['Backend'] }), []);
      });

      it('after/before are inclusive on event_time, falling back to created_at', async () => {
        assert.deepEqual(sorted(await listIds({ user_id: user, after: iso(7) })), ids(m.pinned, m.evented));
        assert.deepEqual(sorted(await listIds({ user_id: user, before: iso(2) })), ids(m.projectA, m.projectB));
        assert.deepEqual(sorted(await listIds({ user_id: user, after: iso(5), before: iso(6) })), ids(m.lowConfidence));
        assert.deepEqual(await listIds({ user_id: user, after: iso(20), before: iso(20) }), [m.evented.memory_id]);
      });

      it('min_confidence, pinned and source_types', async () => {
        assert.ok(!(await listIds({ user_id: user, min_confidence: 0.5 })).includes(m.lowConfidence.memory_id));
        assert.deepEqual(await listIds({ user_id: user, min_confidence: 0.3, source_types: ['inferred'] }), [
          m.lowConfidence.memory_id,
        ]);
        assert.deepEqual(await listIds({ user_id: user, pinned: true }), [m.pinned.memory_id]);
        assert.equal((await listIds({ user_id: user, pinned: false })).length, liveVisible.length - 1);
        assert.deepEqual(
          sorted(await listIds({ user_id: user, source_types: ['observed', 'inferred'] })),
          ids(m.pinned, m.lowConfidence),
        );
      });

      it('never returns rows of another user', async () => {
        const stranger = newUserId();
        assert.deepEqual(await listIds({ user_id: stranger, state: 'all', include_superseded: true }), []);
        const result = await store().listMemories({
          filter: { user_id: user, tags: ['backend'] },
          sort: 'created',
          offset: 0,
          limit: 10,
        });
        assert.equal(result.total, 1);
      });
    });

    describe('layer scopes', () => {
      const user = newUserId();
      const agent = makeMemory(user, {
        layer: 'agent',
        scope_id: 'copilot',
        content: 'The heron agent formats with prettier.',
        embedding_model: MODEL,
        created_at: iso(1),
      });
      const own = makeMemory(user, {
        content: 'The heron service deploys on Fridays.',
        embedding_model: MODEL,
        created_at: iso(2),
      });
      const session = makeMemory(user, {
        layer: 'session',
        scope_id: 'sess_1',
        content: 'The heron bug is being bisected now.',
        embedding_model: MODEL,
        created_at: iso(3),
      });
      const otherAgent = makeMemory(user, {
        layer: 'agent',
        scope_id: 'claude',
        content: 'The heron agent prefers tabs.',
        embedding_model: MODEL,
        created_at: iso(4),
      });
      const team = makeMemory(`team:${user}`, {
        layer: 'team',
        scope_id: user,
        content: 'The heron team reviews every migration.',
        embedding_model: MODEL,
        created_at: iso(5),
      });
      const vector = randomUnitVector(8, seededRandom(7));
      const scopes = (...refs: Array<[MemoryRecord['layer'], string]>) =>
        refs.map(([layer, scope_id]) => ({ layer, scope_id }));

      before(async () => {
        for (const memory of [agent, own, session, otherAgent, team])
          await store().insertMemory(memory, embedding(vector));
      });

      it('round-trips layer and scope_id, also in a shared partition', async () => {
        const [back] = await store().getMemories(user, [agent.memory_id]);
        assert.equal(back.layer, 'agent');
        assert.equal(back.scope_id, 'copilot');
        const [shared] = await store().getMemories(`team:${user}`, [team.memory_id]);
        assert.deepEqual([shared.layer, shared.scope_id, shared.user_id], ['team', user, `team:${user}`]);
        assert.deepEqual(await store().getMemories(user, [team.memory_id]), []);
      });

      it('without scopes a filter sees every layer of the partition', async () => {
        assert.deepEqual(
          sorted(await listIds({ user_id: user })),
          sorted([agent, own, session, otherAgent].map((m) => m.memory_id)),
        );
      });

      it('scopes restrict listing, lexical and vector search alike', async () => {
        const filter = { user_id: user, scopes: scopes(['user', user], ['agent', 'copilot']) };
        const expected = sorted([own.memory_id, agent.memory_id]);
        assert.deepEqual(sorted(await listIds(filter)), expected);
        const lexical = await store().searchLexical({ filter, terms: analyzeQuery('heron'), limit: 10 });
        assert.deepEqual(sorted(lexical.map((hit) => hit.memory_id)), expected);
        const vectorHits = await store().searchVector({ filter, vector, model: MODEL, limit: 10 });
        assert.deepEqual(sorted(vectorHits.map((hit) => hit.memory_id)), expected);
        assert.deepEqual(await listIds({ user_id: user, scopes: scopes(['session', 'sess_2']) }), []);
        assert.deepEqual(await listIds({ user_id: user, scopes: [] }), []);
      });

      it('neighbour windows only walk through memories of the filter scopes', async () => {
        const windows = await store().adjacentMemories(
          { user_id: user, scopes: scopes(['user', user], ['session', 'sess_1']) },
          [own.memory_id],
          2,
          365 * 86_400_000,
        );
        assert.deepEqual(windows.get(own.memory_id), { before: [], after: [session.memory_id] });
      });
    });

    describe('listMemories sorting and paging', () => {
      it('sorts by created, importance, access_count and recency (descending)', async () => {
        const user = newUserId();
        const a = makeMemory(user, { created_at: iso(1), importance: 0.2, access_count: 5, last_accessed: iso(3) });
        const b = makeMemory(user, { created_at: iso(2), importance: 0.9, access_count: 1, last_accessed: iso(1) });
        const c = makeMemory(user, { created_at: iso(3), importance: 0.5, access_count: 9, last_accessed: iso(2) });
        await insertAll([a, b, c]);
        const filter = { user_id: user };
        assert.deepEqual(
          await listIds(filter, 'created'),
          [c, b, a].map((x) => x.memory_id),
        );
        assert.deepEqual(
          await listIds(filter, 'importance'),
          [b, c, a].map((x) => x.memory_id),
        );
        assert.deepEqual(
          await listIds(filter, 'access_count'),
          [c, a, b].map((x) => x.memory_id),
        );
        assert.deepEqual(
          await listIds(filter, 'recency'),
          [a, c, b].map((x) => x.memory_id),
        );
      });

      it('pages with offset/limit and reports the total of all matches', async () => {
        const user = newUserId();
        const memories = Array.from({ length: 7 }, (_, i) => makeMemory(user, { created_at: iso(i) }));
        await insertAll(memories);
        const newestFirst = [...memories].reverse().map((x) => x.memory_id);
        const pages: string[] = [];
        for (let offset = 0; offset < 7; offset += 3) {
          const page = await store().listMemories({ filter: { user_id: user }, sort: 'created', offset, limit: 3 });
          assert.equal(page.total, 7);
          pages.push(...page.items.map((x) => x.memory_id));
        }
        assert.deepEqual(pages, newestFirst);
        const beyond = await store().listMemories({ filter: { user_id: user }, sort: 'created', offset: 50, limit: 3 });
        assert.deepEqual(beyond, { items: [], total: 7 });
      });
    });

    describe('searchLexical', () => {
      const user = newUserId();
      const rare = makeMemory(user, {
        content: 'The flamingo deployment pipeline runs nightly builds.',
        created_at: iso(1),
      });
      const common = [
        makeMemory(user, { content: 'The deployment pipeline deploys builds to staging.', created_at: iso(2) }),
        makeMemory(user, { content: 'Deployment happens after the pipeline passes.', created_at: iso(3) }),
        makeMemory(user, { content: 'Builds use the pipeline cache for deployment speed.', created_at: iso(4) }),
      ];
      const procedural = makeMemory(user, {
        content: 'Debugging walrus crashes: check the walrus logs first.',
        memory_category: 'procedural',
        memory_subtype: 'debugging',
        created_at: iso(5),
      });
      const terms = (text: string) => analyzeQuery(text);

      before(async () => {
        await insertAll([rare, ...common, procedural]);
        await insertAll([makeMemory(newUserId(), { content: 'flamingo flamingo flamingo walrus' })]);
      });

      it('ranks the document with the rare query term first, with matched terms', async () => {
        const hits = await store().searchLexical({
          filter: { user_id: user },
          terms: terms('flamingo deployment pipeline'),
          limit: 10,
        });
        assert.equal(hits[0].memory_id, rare.memory_id);
        assert.ok(hits.length >= 4);
        for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score, 'scores are descending');
        assert.ok(hits[0].matched_terms.length >= 2);
        assert.ok(hits[0].matched_terms.includes(terms('flamingo')[0].term));
        assert.ok(hits.every((h) => h.score > 0));
      });

      it('reports the query words a hit holds at the start or end of a longer word of its own (parts)', async () => {
        const [flamingo, pipeline] = [terms('flamingo')[0].term, terms('pipeline')[0].term];
        const hits = await store().searchLexical({
          filter: { user_id: user },
          terms: terms('deployment pipeline'),
          limit: 10,
          // "amin" is inside "flamingo" only; "deploy" is a word of its own, not a part of one; "fla"
          // is too short to be looked for.
          parts: ['pipe', 'ingo', 'amin', terms('deployment')[0].term, 'fla'],
        });
        const rareHit = hits.find((hit) => hit.memory_id === rare.memory_id);
        assert.deepEqual(rareHit?.part_matches, [
          { part: 'pipe', term: pipeline },
          { part: 'ingo', term: flamingo },
        ]);
        const plain = await store().searchLexical({ filter: { user_id: user }, terms: terms('deployment'), limit: 10 });
        assert.ok(
          plain.every((hit) => hit.part_matches === undefined),
          'no parts asked, none reported',
        );
        const none = await store().searchLexical({
          filter: { user_id: user },
          terms: terms('deployment'),
          limit: 10,
          parts: [],
        });
        assert.ok(
          none.every((hit) => hit.part_matches === undefined),
          'an empty list of parts is no parts: every backend answers alike',
        );
      });

      it('respects limit and returns nothing for unknown terms', async () => {
        const hits = await store().searchLexical({
          filter: { user_id: user },
          terms: terms('deployment pipeline'),
          limit: 2,
        });
        assert.equal(hits.length, 2);
        assert.deepEqual(
          await store().searchLexical({ filter: { user_id: user }, terms: terms('xylophonist'), limit: 5 }),
          [],
        );
      });

      it("reports BM25 corpus statistics of the user's live memories for the recall scale", async () => {
        const [flamingo, deployment, unknown] = ['flamingo', 'deployment', 'xylophonist'].map(
          (word) => terms(word)[0].term,
        );
        const stats = await store().termStatistics(user, [flamingo, deployment, unknown]);
        // Five memories of this user; the other user's flamingo document does not count.
        assert.equal(stats.documents, 5);
        assert.equal(stats.frequencies.get(flamingo), 1);
        assert.equal(stats.frequencies.get(deployment), 4);
        assert.equal(stats.frequencies.get(unknown) ?? 0, 0);
        assert.equal((await store().termStatistics(newUserId(), [flamingo])).documents, 0);
      });

      it('answers the search and the statistics together as it answers them apart', async () => {
        const query = { filter: { user_id: user }, terms: terms('deployment flamingo'), limit: 3 };
        const conceptTerms = query.terms.map((entry) => entry.term);
        const together = await store().searchLexicalWithStatistics(query, conceptTerms);
        assert.deepEqual(together, {
          hits: await store().searchLexical(query),
          statistics: await store().termStatistics(user, conceptTerms),
        });
      });

      it('applies the filter before the top-k cut', async () => {
        const hits = await store().searchLexical({
          filter: { user_id: user, categories: ['procedural'] },
          terms: terms('walrus deployment pipeline'),
          limit: 1,
        });
        assert.deepEqual(
          hits.map((h) => h.memory_id),
          [procedural.memory_id],
        );
      });

      it('only searches the filter user', async () => {
        const stranger = newUserId();
        assert.deepEqual(
          await store().searchLexical({ filter: { user_id: stranger }, terms: terms('flamingo'), limit: 5 }),
          [],
        );
        const hits = await store().searchLexical({ filter: { user_id: user }, terms: terms('flamingo'), limit: 5 });
        assert.deepEqual(
          hits.map((h) => h.memory_id),
          [rare.memory_id],
        );
      });

      it('follows updates, soft deletes, supersedes and hard deletes', async () => {
        const owner = newUserId();
        const memory = makeMemory(owner, { content: 'The capybara service owns billing.' });
        await store().insertMemory(memory, null);
        const search = (text: string, filter: Partial<MemoryFilter> = {}) =>
          store()
            .searchLexical({ filter: { user_id: owner, ...filter }, terms: terms(text), limit: 5 })
            .then((h) => h.map((x) => x.memory_id));
        assert.deepEqual(await search('capybara'), [memory.memory_id]);

        await rewriteMemory(store(), { ...memory, content: 'The axolotl service owns billing.' });
        assert.deepEqual(await search('capybara'), []);
        assert.deepEqual(await search('axolotl'), [memory.memory_id]);

        const superseded = { ...memory, content: 'The axolotl service owns billing.', superseded_by: 'mem_x' };
        await rewriteMemory(store(), superseded);
        assert.deepEqual(await search('axolotl'), []);
        assert.deepEqual(await search('axolotl', { include_superseded: true }), [memory.memory_id]);

        await rewriteMemory(store(), { ...superseded, superseded_by: null, deleted_at: iso(3) });
        assert.deepEqual(await search('axolotl'), []);
        await rewriteMemory(store(), { ...superseded, superseded_by: null, deleted_at: null });
        assert.deepEqual(await search('axolotl'), [memory.memory_id]);

        await store().hardDeleteMemory(owner, memory.memory_id);
        assert.deepEqual(await search('axolotl', { state: 'all', include_superseded: true }), []);
      });
    });

    describe('searchVector', () => {
      const dims = 16;
      const user = newUserId();
      const random = seededRandom(42);
      const query = randomUnitVector(dims, random);
      const targets = [0.95, 0.8, 0.6, 0.3, -0.2].map((similarity) => vectorNear(query, similarity, random));
      const memories = targets.map((_, i) => makeMemory(user, { created_at: iso(i), embedding_model: MODEL }));
      const procedural = makeMemory(user, {
        memory_category: 'procedural',
        memory_subtype: 'workflow',
        embedding_model: MODEL,
      });
      const proceduralVector = vectorNear(query, 0.1, random);
      const otherModel = makeMemory(user, { embedding_model: OTHER_MODEL });

      before(async () => {
        for (let i = 0; i < memories.length; i++) await store().insertMemory(memories[i], embedding(targets[i]));
        await store().insertMemory(procedural, embedding(proceduralVector));
        await store().insertMemory(otherModel, embedding(query, OTHER_MODEL));
        await store().insertMemory(makeMemory(newUserId(), { embedding_model: MODEL }), embedding(query));
      });

      it('orders hits by cosine similarity and reports it', async () => {
        const hits = await store().searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 10 });
        assert.deepEqual(
          hits.map((h) => h.memory_id),
          [...memories.slice(0, 4), procedural, memories[4]].map((m) => m.memory_id),
        );
        for (const hit of hits) {
          const index = memories.findIndex((m) => m.memory_id === hit.memory_id);
          const expected = cosineOf(query, index >= 0 ? targets[index] : proceduralVector);
          assert.ok(Math.abs(hit.similarity - expected) < 1e-4, `similarity ${hit.similarity} vs ${expected}`);
          assert.equal(typeof hit.method, 'string');
        }
      });

      it('never returns vectors of another model or another user', async () => {
        const hits = await store().searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 50 });
        assert.ok(!hits.some((h) => h.memory_id === otherModel.memory_id));
        assert.equal(hits.length, memories.length + 1);
        const other = await store().searchVector({
          filter: { user_id: user },
          vector: query,
          model: OTHER_MODEL,
          limit: 50,
        });
        assert.deepEqual(
          other.map((h) => h.memory_id),
          [otherModel.memory_id],
        );
        assert.ok(Math.abs(other[0].similarity - 1) < 1e-4);
        assert.deepEqual(
          await store().searchVector({ filter: { user_id: newUserId() }, vector: query, model: MODEL, limit: 5 }),
          [],
        );
      });

      it('applies the filter before the top-k cut and respects limit', async () => {
        const filtered = await store().searchVector({
          filter: { user_id: user, categories: ['procedural'] },
          vector: query,
          model: MODEL,
          limit: 1,
        });
        assert.deepEqual(
          filtered.map((h) => h.memory_id),
          [procedural.memory_id],
        );
        const top2 = await store().searchVector({ filter: { user_id: user }, vector: query, model: MODEL, limit: 2 });
        assert.deepEqual(
          top2.map((h) => h.memory_id),
          memories.slice(0, 2).map((m) => m.memory_id),
        );
      });

      it('follows re-embedding, soft delete and hard delete', async () => {
        const owner = newUserId();
        const rng = seededRandom(7);
        const probe = randomUnitVector(dims, rng);
        const memory = makeMemory(owner, { embedding_model: MODEL });
        await store().insertMemory(memory, embedding(vectorNear(probe, 0.9, rng)));
        const search = () =>
          store()
            .searchVector({ filter: { user_id: owner }, vector: probe, model: MODEL, limit: 5 })
            .then((h) => h.map((x) => x.memory_id));
        assert.deepEqual(await search(), [memory.memory_id]);

        await rewriteMemory(store(), { ...memory, embedding_model: OTHER_MODEL }, embedding(probe, OTHER_MODEL));
        assert.deepEqual(await search(), []);
        await rewriteMemory(store(), { ...memory, embedding_model: MODEL }, embedding(probe));
        const [exact] = await store().searchVector({
          filter: { user_id: owner },
          vector: probe,
          model: MODEL,
          limit: 5,
        });
        assert.ok(Math.abs(exact.similarity - 1) < 1e-4);

        await rewriteMemory(store(), { ...memory, embedding_model: MODEL, deleted_at: iso(2) });
        assert.deepEqual(await search(), []);
        await rewriteMemory(store(), { ...memory, embedding_model: MODEL, deleted_at: null });
        assert.deepEqual(await search(), [memory.memory_id], 'restoring keeps the stored vector');

        await rewriteMemory(store(), { ...memory, embedding_model: null }, null);
        assert.deepEqual(await search(), []);
        await rewriteMemory(store(), { ...memory, embedding_model: MODEL }, embedding(probe));
        await store().hardDeleteMemory(owner, memory.memory_id);
        assert.deepEqual(await search(), []);
      });
    });

    describe('embeddings bookkeeping', () => {
      it('getEmbeddings returns only the user’s stored vectors', async () => {
        const user = newUserId();
        const other = newUserId();
        const mine = makeMemory(user, { embedding_model: MODEL });
        const bare = makeMemory(user);
        const theirs = makeMemory(other, { embedding_model: MODEL });
        const vector = randomUnitVector(4, seededRandom(9));
        await store().insertMemory(mine, embedding(vector));
        await store().insertMemory(bare, null);
        await store().insertMemory(theirs, embedding(vector));
        const found = await store().getEmbeddings(user, [mine.memory_id, bare.memory_id, theirs.memory_id]);
        assert.deepEqual([...found.keys()], [mine.memory_id]);
        assert.ok(found.get(mine.memory_id)!.vector instanceof Float32Array);
      });

      it('listUnembedded returns live memories without a vector of the model', async () => {
        const user = newUserId();
        const vector = randomUnitVector(4, seededRandom(10));
        const current = makeMemory(user, { embedding_model: MODEL, created_at: iso(1) });
        const stale = makeMemory(user, { embedding_model: OTHER_MODEL, created_at: iso(2) });
        const missing = makeMemory(user, { created_at: iso(3) });
        const trashed = makeMemory(user, { deleted_at: iso(4), created_at: iso(4) });
        await store().insertMemory(current, embedding(vector));
        await store().insertMemory(stale, embedding(vector, OTHER_MODEL));
        await store().insertMemory(missing, null);
        await store().insertMemory(trashed, null);
        await store().insertMemory(makeMemory(newUserId()), null);
        const found = await store().listUnembedded(user, MODEL, 10);
        assert.deepEqual(sorted(found.map((m) => m.memory_id)), sorted([stale.memory_id, missing.memory_id]));
        assert.equal((await store().listUnembedded(user, MODEL, 1)).length, 1);
        const anyUser = await store().listUnembedded(null, MODEL, 100_000);
        assert.ok(anyUser.some((m) => m.memory_id === missing.memory_id));
        assert.ok(!anyUser.some((m) => m.memory_id === current.memory_id));
      });
    });

    describe('adjacentMemories', () => {
      const HOUR = 3_600_000;

      it('returns live, filter-passing neighbours in storage order, nearest first, for the user only', async () => {
        const user = newUserId();
        const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((label) =>
          makeMemory(user, { content: `turn ${label}` }),
        );
        const trashed = makeMemory(user, { content: 'trashed turn', deleted_at: iso(1) });
        const procedural = makeMemory(user, {
          content: 'a workflow',
          memory_category: 'procedural',
          memory_subtype: 'workflow',
        });
        for (const memory of [a, b, trashed, c, procedural, d, e]) await store().insertMemory(memory, null);
        await store().insertMemory(makeMemory(newUserId()), null);
        const windows = await store().adjacentMemories(
          { user_id: user, categories: ['semantic'] },
          [c.memory_id, a.memory_id, 'mem_missing'],
          2,
          HOUR,
        );
        assert.deepEqual(windows.get(c.memory_id), {
          before: [b.memory_id, a.memory_id],
          after: [d.memory_id, e.memory_id],
        });
        assert.deepEqual(windows.get(a.memory_id), { before: [], after: [b.memory_id, c.memory_id] });
        assert.equal(windows.has('mem_missing'), false);
        const unfiltered = await store().adjacentMemories({ user_id: user }, [c.memory_id], 1, HOUR);
        assert.deepEqual(unfiltered.get(c.memory_id), { before: [b.memory_id], after: [procedural.memory_id] });
        assert.equal(
          (await store().adjacentMemories({ user_id: newUserId() }, [c.memory_id], 1, HOUR)).size,
          0,
          'another user sees nothing',
        );
      });

      it('stops at a conversation boundary: another session or a time gap', async () => {
        const user = newUserId();
        const early = makeMemory(user, { content: 'early turn', event_time: '2026-01-01T09:00:00.000Z' });
        const first = makeMemory(user, { content: 'first turn', event_time: '2026-01-02T09:00:00.000Z' });
        const second = makeMemory(user, { content: 'second turn', event_time: '2026-01-02T09:05:00.000Z' });
        const otherSession = makeMemory(user, {
          content: 'other session',
          event_time: '2026-01-02T09:06:00.000Z',
          source_session: 'sess_other',
        });
        for (const memory of [early, first, second, otherSession]) await store().insertMemory(memory, null);
        const windows = await store().adjacentMemories({ user_id: user }, [first.memory_id, second.memory_id], 3, HOUR);
        assert.deepEqual(windows.get(first.memory_id), { before: [], after: [second.memory_id] });
        assert.deepEqual(windows.get(second.memory_id), { before: [first.memory_id], after: [] });
      });
    });

    describe('turnFacts', () => {
      const turn = (user: string, overrides: Partial<MemoryRecord>): MemoryRecord =>
        makeMemory(user, { memory_category: 'episodic', memory_subtype: 'conversation', ...overrides });
      const change = (user: string, memoryId: string, edit: Parameters<MemoryStore['changeMemory']>[0]['change']) =>
        store().changeMemory({ user_id: user, memory_id: memoryId, change: edit, at: iso(9), if_forgotten: 'reject' });

      it("keeps every live memory's conversation and question flag through each write that changes them", async () => {
        const user = newUserId();
        const bySession = turn(user, { source_session: 'sess_a', content: 'Where did you go?' });
        const byMetadata = turn(user, { metadata: { thread_id: 't-1' }, content: 'To the lake.' });
        const unmarked = turn(user, { content: 'Lunch at noon?' });
        const note = makeMemory(user, { content: 'Does the build cache survive a restart?', source_session: 'sess_a' });
        await insertAll([bySession, byMetadata, unmarked, note]);
        const strangers = makeMemory(newUserId(), { memory_subtype: 'conversation', source_session: 'sess_a' });
        await store().insertMemory(strangers, null);
        const ids = [bySession, byMetadata, unmarked, note].map((memory) => memory.memory_id);
        const facts = async () =>
          Object.fromEntries(await store().turnFacts(user, [...ids, 'mem_missing', strangers.memory_id]));
        assert.deepEqual(await facts(), {
          [bySession.memory_id]: { conversation: 'session:sess_a', question: true },
          [byMetadata.memory_id]: { conversation: 'thread_id:t-1', question: false },
          [unmarked.memory_id]: { conversation: null, question: false },
          [note.memory_id]: { conversation: null, question: false },
        });

        await change(user, byMetadata.memory_id, { content: 'To the lake. And you?' });
        await change(user, unmarked.memory_id, { merge_metadata: { conversation_id: 'c-2' } });
        await change(user, bySession.memory_id, { set: { memory_subtype: 'decision', memory_category: 'episodic' } });
        await change(user, note.memory_id, { set: { memory_subtype: 'conversation', memory_category: 'episodic' } });
        assert.deepEqual(await facts(), {
          [bySession.memory_id]: { conversation: null, question: false },
          [byMetadata.memory_id]: { conversation: 'thread_id:t-1', question: true },
          [unmarked.memory_id]: { conversation: 'conversation_id:c-2', question: true },
          [note.memory_id]: { conversation: 'session:sess_a', question: true },
        });

        await store().forgetMemories(user, [byMetadata.memory_id], iso(10));
        assert.equal((await facts())[byMetadata.memory_id], undefined, 'a forgotten memory has no facts');
        await store().restoreMemories(user, [byMetadata.memory_id], iso(11));
        assert.deepEqual((await facts())[byMetadata.memory_id], { conversation: 'thread_id:t-1', question: true });
        await store().hardDeleteMemory(user, unmarked.memory_id);
        assert.equal((await facts())[unmarked.memory_id], undefined, 'an erased memory has no facts');
        await store().deleteUser(user);
        assert.deepEqual(await facts(), {}, 'nothing is left of a deleted user');
        assert.equal((await store().turnFacts(strangers.user_id, [strangers.memory_id])).size, 1);
      });
    });

    describe('rankingFacts', () => {
      const change = (user: string, memoryId: string, edit: Parameters<MemoryStore['changeMemory']>[0]['change']) =>
        store().changeMemory({ user_id: user, memory_id: memoryId, change: edit, at: iso(9), if_forgotten: 'reject' });

      it("keeps every live memory's ranking facts equal to its row's through each write that changes them", async () => {
        const user = newUserId();
        const anchored = makeMemory(user, {
          metadata: { project: '  pebble ', anchors: [{ path: 'src/a.ts' }] },
          entities: ['Redis', 'café'],
          importance: 0.8,
          decay_factor: 0.4375,
          confidence: 0.9,
          pinned: true,
          event_time: iso(3, 7),
          created_at: iso(4),
          last_accessed: iso(5),
        });
        const turn = makeMemory(user, {
          memory_category: 'episodic',
          memory_subtype: 'conversation',
          source_session: 'sess_a',
          content: 'Where did you go?',
          project_id: 'proj_1',
          metadata: { project: 7, anchors: [] },
          layer: 'session',
        });
        const plain = makeMemory(user, { metadata: { project: '   ' }, project_id: 'proj_2' });
        await insertAll([anchored, turn, plain]);
        const strangers = makeMemory(newUserId());
        await store().insertMemory(strangers, null);
        const ids = [anchored, turn, plain].map((memory) => memory.memory_id);
        const facts = async () =>
          Object.fromEntries(await store().rankingFacts(user, [...ids, 'mem_missing', strangers.memory_id]));
        const fromRows = async () =>
          Object.fromEntries(
            (await store().getMemories(user, ids))
              .filter((memory) => memory.deleted_at === null)
              .map((memory) => [memory.memory_id, rankingFactsOf(memory)]),
          );
        assert.deepEqual(await facts(), await fromRows());
        assert.deepEqual((await facts())[anchored.memory_id], {
          conversation: null,
          question: false,
          memory_id: anchored.memory_id,
          layer: 'user',
          project_id: null,
          declared_project: 'pebble',
          memory_category: 'semantic',
          memory_subtype: 'project',
          entities: ['Redis', 'café'],
          importance: 0.8,
          decay_factor: 0.4375,
          confidence: 0.9,
          access_count: 0,
          pinned: true,
          created_ms: Date.parse(iso(4)),
          last_accessed_ms: Date.parse(iso(5)),
          happened_ms: Date.parse(iso(3, 7)),
          anchored: true,
        });
        assert.deepEqual(
          [(await facts())[turn.memory_id]!.conversation, (await facts())[turn.memory_id]!.anchored],
          ['session:sess_a', false],
        );
        assert.equal((await facts())[plain.memory_id]!.declared_project, null, 'a blank project is no project');

        await store().recordAccess([makeAccess(plain, { accessed_at: iso(20) })]);
        await change(user, anchored.memory_id, {
          set: { importance: 0.3, decay_factor: 0.5, pinned: false, event_time: null, entities: ['Kafka'] },
          remove_metadata: ['anchors'],
          merge_metadata: { project: 'granite' },
        });
        await change(user, turn.memory_id, {
          set: { memory_subtype: 'decision', project_id: null, confidence: 0.5 },
          merge_metadata: { anchors: [{ path: 'src/b.ts' }] },
        });
        const changed = await facts();
        assert.deepEqual(changed, await fromRows());
        assert.equal(changed[plain.memory_id]!.access_count, 1);
        assert.equal(changed[plain.memory_id]!.last_accessed_ms, Date.parse(iso(20)));
        assert.equal(changed[anchored.memory_id]!.declared_project, 'granite');
        assert.equal(changed[anchored.memory_id]!.anchored, false);
        assert.equal(changed[anchored.memory_id]!.decay_factor, 0.5);
        assert.equal(changed[anchored.memory_id]!.happened_ms, Date.parse(iso(4)), 'without event_time, created_at');
        assert.equal(changed[turn.memory_id]!.anchored, true);
        assert.equal(changed[turn.memory_id]!.conversation, null);

        await store().forgetMemories(user, [plain.memory_id], iso(10));
        assert.equal((await facts())[plain.memory_id], undefined, 'a forgotten memory has no facts');
        await store().restoreMemories(user, [plain.memory_id], iso(11));
        assert.deepEqual(await facts(), await fromRows());
        await store().hardDeleteMemory(user, turn.memory_id);
        assert.equal((await facts())[turn.memory_id], undefined, 'an erased memory has no facts');
        await store().deleteUser(user);
        assert.deepEqual(await facts(), {}, 'nothing is left of a deleted user');
        assert.equal((await store().rankingFacts(strangers.user_id, [strangers.memory_id])).size, 1);
        assert.equal((await store().rankingFacts(strangers.user_id, [])).size, 0);
      });
    });

    describe('duplicateCandidates', () => {
      it('answers what searchLexical finds, in its order, each as the duplicate rule reads its row, whatever its metadata', async () => {
        const user = newUserId();
        const strangers = makeMemory(newUserId(), { content: 'pelican of another user' });
        const metadatas: Array<Record<string, unknown>> = [
          {},
          { fact: { category: 'preference', key: 'editor', value: 'vim' } },
          { fact: { category: 'tool', key: 'a/b "quoted" ü', value: 'x' }, other: [1, 2] },
          { fact: { category: 'tool', key: 42 } },
          { fact: { key: 'editor' } },
          { fact: ['preference', 'editor'] },
          { fact: 'preference/editor' },
          { fact: null, tags: ['x'] },
        ];
        const memories = metadatas.map((metadata, index) =>
          makeMemory(user, {
            content: `pelican ${'heron '.repeat(index)}candidate ${index}`,
            metadata,
            project_id: index % 3 === 0 ? null : `proj-${index % 2}`,
          }),
        );
        for (const memory of [...memories, strangers]) await store().insertMemory(memory, null);
        await store().changeMemory({
          user_id: user,
          memory_id: memories[2].memory_id,
          change: { set: { superseded_by: memories[3].memory_id } },
          at: iso(9),
          if_forgotten: 'reject',
        });
        const query = { filter: { user_id: user }, terms: analyzeQuery('pelican heron'), limit: 20 };
        const hits = (await store().searchLexical(query)).map((hit) => hit.memory_id);
        assert.ok(hits.length >= 7, `the search finds the memories: ${hits.length}`);
        const rows = new Map((await store().getMemories(user, hits)).map((memory) => [memory.memory_id, memory]));
        const answered = await store().duplicateCandidates(query);
        assert.deepEqual(
          answered,
          hits.map((id) => duplicateCandidateOf(rows.get(id)!)),
        );
        const facts = new Map(answered.map((candidate) => [candidate.memory_id, candidate.fact]));
        const expectedFacts = [null, 'preference/editor', 'tool/a/b "quoted" ü', null, null, null, null, null];
        memories.forEach((memory, index) => {
          if (facts.has(memory.memory_id)) assert.equal(facts.get(memory.memory_id), expectedFacts[index]);
        });
        assert.ok(facts.has(memories[1].memory_id) && facts.has(memories[3].memory_id));
        assert.deepEqual(
          (await store().duplicateCandidates({ ...query, limit: 3 })).map((candidate) => candidate.memory_id),
          hits.slice(0, 3),
        );
        await store().forgetMemories(user, [memories[1].memory_id], iso(10));
        assert.deepEqual(
          (await store().duplicateCandidates(query)).map((candidate) => candidate.memory_id),
          (await store().searchLexical(query)).map((hit) => hit.memory_id),
          'as the search, after a forget',
        );
        assert.deepEqual(await store().duplicateCandidates({ ...query, terms: [] }), []);
      });
    });

    describe('access log and stats', () => {
      it('recordAccess appends log rows and bumps access_count / last_accessed', async () => {
        const user = newUserId();
        const memory = makeMemory(user, { access_count: 2, last_accessed: iso(1) });
        const untouched = makeMemory(user, { access_count: 0 });
        await insertAll([memory, untouched]);
        await store().recordAccess([
          makeAccess(memory, { accessed_at: iso(6) }),
          makeAccess(memory, { accessed_at: iso(7) }),
        ]);
        const [after] = await store().getMemories(user, [memory.memory_id]);
        assert.equal(after.access_count, 4);
        assert.equal(Date.parse(after.last_accessed), Date.parse(iso(7)));
        assert.equal((await store().getMemories(user, [untouched.memory_id]))[0].access_count, 0);
        assert.equal((await store().stats(user)).access_log_entries, 2);
        const byAccess = await listIds({ user_id: user }, 'access_count');
        assert.deepEqual(byAccess, [memory.memory_id, untouched.memory_id]);
      });

      it("listAccessLog pages the user's rows oldest first, every field intact", async () => {
        const user = newUserId();
        const memory = makeMemory(user);
        await store().insertMemory(memory, null);
        const entries = [
          makeAccess(memory, { accessed_at: iso(8), session_id: 'sess_x', similarity_score: 0.25 }),
          makeAccess(memory, { accessed_at: iso(6), query_text: null, similarity_score: null }),
          makeAccess(memory, { accessed_at: iso(7) }),
        ];
        await store().recordAccess(entries);
        const expected = [entries[1], entries[2], entries[0]].map((entry) => ({
          ...entry,
          accessed_at: new Date(entry.accessed_at).toISOString(),
        }));
        const normalise = (page: readonly (typeof entries)[number][]) =>
          page.map((entry) => ({ ...entry, accessed_at: new Date(entry.accessed_at).toISOString() }));
        assert.deepEqual(normalise(await store().listAccessLog(user, 0, 10)), expected);
        assert.deepEqual(normalise(await store().listAccessLog(user, 1, 1)), [expected[1]]);
        assert.deepEqual(await store().listAccessLog(newUserId(), 0, 10), []);
      });

      it("recordAccess ignores another user's memory", async () => {
        const owner = newUserId();
        const intruder = newUserId();
        const memory = makeMemory(owner);
        await store().insertMemory(memory, null);
        await store().recordAccess([makeAccess(memory, { user_id: intruder })]);
        assert.equal((await store().getMemories(owner, [memory.memory_id]))[0].access_count, 0);
        assert.equal((await store().stats(intruder)).access_log_entries, 0);
      });

      it('stats counts live, deleted, pinned, categories, sessions, items, accesses and vectors', async () => {
        const user = newUserId();
        const vector = randomUnitVector(4, seededRandom(11));
        const a = makeMemory(user, {
          memory_category: 'semantic',
          memory_subtype: 'project',
          pinned: true,
          created_at: iso(1),
          embedding_model: MODEL,
        });
        const b = makeMemory(user, { memory_category: 'procedural', memory_subtype: 'workflow', created_at: iso(2) });
        const c = makeMemory(user, {
          memory_category: 'procedural',
          memory_subtype: 'workflow',
          created_at: iso(3),
          embedding_model: MODEL,
        });
        const trashed = makeMemory(user, { deleted_at: iso(5), created_at: iso(0), embedding_model: MODEL });
        await store().insertMemory(a, embedding(vector));
        await store().insertMemory(b, null);
        await store().insertMemory(c, embedding(vector));
        await store().insertMemory(trashed, embedding(vector));
        const session = makeSession(user);
        await store().commitWorking({
          session,
          upsert: [makeWorkingItem(session, 0), makeWorkingItem(session, 1)],
          delete: [],
        });
        await store().recordAccess([makeAccess(a)]);
        await store().insertMemory(makeMemory(newUserId()), null);

        const stats = await store().stats(user);
        assert.equal(stats.memories, 3);
        assert.equal(stats.deleted, 1);
        assert.equal(stats.pinned, 1);
        assert.deepEqual(stats.by_category, { semantic: 1, procedural: 2 });
        assert.deepEqual(stats.by_subtype, { project: 1, workflow: 2 });
        assert.equal(stats.sessions, 1);
        assert.equal(stats.working_items, 2);
        assert.equal(stats.access_log_entries, 1);
        assert.equal(stats.embedded, 2);
        assert.equal(Date.parse(stats.oldest!), Date.parse(iso(1)));
        assert.equal(Date.parse(stats.newest!), Date.parse(iso(3)));
        assert.ok(stats.storage_bytes === null || stats.storage_bytes > 0);

        const empty = await store().stats(newUserId());
        assert.equal(empty.memories, 0);
        assert.equal(empty.oldest, null);
        assert.deepEqual(empty.by_category, {});
      });
    });

    describe('deleteUser', () => {
      it('removes everything the user has and returns the counts', async () => {
        const user = newUserId();
        const survivor = newUserId();
        const memories = [
          makeMemory(user, { content: 'narwhal one', embedding_model: MODEL }),
          makeMemory(user, { content: 'narwhal two' }),
          makeMemory(user, { deleted_at: iso(1) }),
        ];
        const vector = randomUnitVector(4, seededRandom(12));
        await store().insertMemory(memories[0], embedding(vector));
        await insertAll(memories.slice(1));
        const sessions = [makeSession(user), makeSession(user)];
        await store().commitWorking({
          session: sessions[0],
          upsert: [makeWorkingItem(sessions[0], 0), makeWorkingItem(sessions[0], 1)],
          delete: [],
        });
        await store().commitWorking({ session: sessions[1], upsert: [makeWorkingItem(sessions[1], 0)], delete: [] });
        await store().recordAccess([makeAccess(memories[0]), makeAccess(memories[1])]);
        const kept = makeMemory(survivor, { content: 'narwhal kept', embedding_model: MODEL });
        await store().insertMemory(kept, embedding(vector));
        const keptSession = makeSession(survivor);
        await store().commitWorking({ session: keptSession, upsert: [makeWorkingItem(keptSession, 0)], delete: [] });
        // Warm any search caches so deletion has to reach them.
        await store().searchLexical({ filter: { user_id: user }, terms: analyzeQuery('narwhal'), limit: 5 });
        await store().searchVector({ filter: { user_id: user }, vector, model: MODEL, limit: 5 });

        const receipt = await store().deleteUser(user);
        assert.deepEqual(receipt, {
          memories_deleted: 3,
          sessions_deleted: 2,
          working_items_deleted: 3,
          access_log_deleted: 2,
        });
        const stats = await store().stats(user);
        assert.equal(
          stats.memories +
            stats.deleted +
            stats.sessions +
            stats.working_items +
            stats.access_log_entries +
            stats.embedded,
          0,
        );
        assert.deepEqual(
          await store().getMemories(
            user,
            memories.map((m) => m.memory_id),
          ),
          [],
        );
        assert.deepEqual(await store().listSessions(user), []);
        assert.equal(await store().getSession(sessions[0].session_id), null);
        assert.deepEqual(await store().listWorkingItems(sessions[0].session_id), []);
        assert.deepEqual(
          await store().searchLexical({ filter: { user_id: user }, terms: analyzeQuery('narwhal'), limit: 5 }),
          [],
        );
        assert.deepEqual(await store().searchVector({ filter: { user_id: user }, vector, model: MODEL, limit: 5 }), []);

        assert.equal((await store().getMemories(survivor, [kept.memory_id])).length, 1);
        assert.equal((await store().listWorkingItems(keptSession.session_id)).length, 1);
        const survivorHits = await store().searchLexical({
          filter: { user_id: survivor },
          terms: analyzeQuery('narwhal'),
          limit: 5,
        });
        assert.deepEqual(
          survivorHits.map((h) => h.memory_id),
          [kept.memory_id],
        );
        assert.deepEqual(await store().deleteUser(user), {
          memories_deleted: 0,
          sessions_deleted: 0,
          working_items_deleted: 0,
          access_log_deleted: 0,
        });
      });
    });

    describe('sessions and working memory', () => {
      it('commitWorking upserts the session and items; listWorkingItems orders by sequence_num', async () => {
        const user = newUserId();
        const session = makeSession(user, { project_id: 'proj_a', config: { model: 'claude', temperature: 0.7 } });
        const items = [2, 0, 1].map((seq) =>
          makeWorkingItem(session, seq, { content: `content ${seq}`, metadata: { seq } }),
        );
        const opened = { ...session, total_tokens: 30, next_sequence: 3 };
        await store().commitWorking({ session: opened, upsert: items, delete: [] });
        assert.deepEqual(await store().getSession(session.session_id), opened);
        const listed = await store().listWorkingItems(session.session_id);
        assert.deepEqual(
          listed.map((i) => i.sequence_num),
          [0, 1, 2],
        );
        assert.deepEqual(listed[0], items[1]);
      });

      it('applies upserts and deletes of one change together', async () => {
        const user = newUserId();
        const session = makeSession(user);
        const [a, b, c] = [0, 1, 2].map((seq) => makeWorkingItem(session, seq));
        await store().commitWorking({
          session: { ...session, total_tokens: 30, next_sequence: 3 },
          upsert: [a, b, c],
          delete: [],
        });
        const d = makeWorkingItem(session, 3, { pinned: true, content_type: 'task_state' });
        const bEdited = { ...b, relevance_score: 0.25, content: 'edited' };
        const next = { ...session, total_tokens: 30, next_sequence: 4, last_activity: iso(1) };
        await store().commitWorking({ session: next, upsert: [bEdited, d], delete: [a.item_id, c.item_id] });
        assert.deepEqual(await store().listWorkingItems(session.session_id), [bEdited, d]);
        assert.deepEqual(await store().getSession(session.session_id), next);
      });

      it('getSessionWithItems answers getSession and listWorkingItems of one session together', async () => {
        const user = newUserId();
        const session = makeSession(user);
        const other = makeSession(user);
        const items = [1, 0].map((seq) => makeWorkingItem(session, seq, { content: `item ${seq}` }));
        await store().commitWorking({
          session: { ...session, total_tokens: 20, next_sequence: 2 },
          upsert: items,
          delete: [],
        });
        await store().commitWorking({ session: other, upsert: [makeWorkingItem(other, 0)], delete: [] });
        assert.deepEqual(await store().getSessionWithItems(session.session_id), {
          session: await store().getSession(session.session_id),
          items: await store().listWorkingItems(session.session_id),
        });
        assert.deepEqual(
          (await store().getSessionWithItems(session.session_id))?.items.map((item) => item.sequence_num),
          [0, 1],
        );
        const edited = { ...items[0], content: 'edited' };
        const next = { ...session, total_tokens: 10, next_sequence: 2, last_activity: iso(3) };
        await store().commitWorking({ session: next, upsert: [edited], delete: [items[1].item_id] });
        assert.deepEqual(await store().getSessionWithItems(session.session_id), { session: next, items: [edited] });
        const empty = makeSession(user);
        await store().commitWorking({ session: empty, upsert: [], delete: [] });
        assert.deepEqual(await store().getSessionWithItems(empty.session_id), { session: empty, items: [] });
        assert.equal(await store().getSessionWithItems(newId('sess')), null);
      });

      it('getSession returns null for unknown ids; listSessions lists only the user’s sessions', async () => {
        const user = newUserId();
        assert.equal(await store().getSession(newId('sess')), null);
        assert.deepEqual(await store().listWorkingItems(newId('sess')), []);
        const sessions = [makeSession(user, { last_activity: iso(1) }), makeSession(user, { last_activity: iso(2) })];
        for (const session of sessions) await store().commitWorking({ session, upsert: [], delete: [] });
        await store().commitWorking({ session: makeSession(newUserId()), upsert: [], delete: [] });
        const listed = await store().listSessions(user);
        assert.deepEqual(sorted(listed.map((s) => s.session_id)), sorted(sessions.map((s) => s.session_id)));
        assert.deepEqual(await store().listSessions(newUserId()), []);
      });

      it('deleteSession removes the user’s session with its items, and nothing of another session or user', async () => {
        const user = newUserId();
        const [doomed, kept] = [makeSession(user), makeSession(user)];
        for (const session of [doomed, kept]) {
          await store().commitWorking({
            session: { ...session, total_tokens: 20, next_sequence: 2 },
            upsert: [makeWorkingItem(session, 0), makeWorkingItem(session, 1)],
            delete: [],
          });
        }
        // Another user's id behaves like a missing one: nothing is removed.
        assert.equal(await store().deleteSession(newUserId(), doomed.session_id), false);
        assert.equal((await store().listWorkingItems(doomed.session_id)).length, 2);

        assert.equal(await store().deleteSession(user, doomed.session_id), true);
        assert.equal(await store().getSession(doomed.session_id), null);
        assert.deepEqual(await store().listWorkingItems(doomed.session_id), []);
        assert.deepEqual(
          (await store().listSessions(user)).map((s) => s.session_id),
          [kept.session_id],
        );
        assert.equal((await store().listWorkingItems(kept.session_id)).length, 2);
        assert.equal(await store().deleteSession(user, doomed.session_id), false, 'a second delete finds nothing');
      });
    });
  });
}
