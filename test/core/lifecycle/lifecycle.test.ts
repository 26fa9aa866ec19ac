import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { memoryAnalytics } from '../../../src/core/lifecycle/analytics.ts';
import { consolidateMemories } from '../../../src/core/lifecycle/consolidation.ts';
import { applyDecay, retention } from '../../../src/core/lifecycle/decay.ts';
import { linkMemories, relatedMemories, unlinkMemories } from '../../../src/core/lifecycle/links.ts';
import { MaintenanceScheduler } from '../../../src/core/lifecycle/maintenanceScheduler.ts';
import { pruneMemories } from '../../../src/core/lifecycle/prune.ts';
import { qualityReport } from '../../../src/core/lifecycle/qualityReport.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

const DAY = 86_400_000;

describe('memory lifecycle', () => {
  let t: TestCore;
  let now = Date.parse('2026-01-01T00:00:00Z');
  const store = (user: string, content: string, extra: Record<string, unknown> = {}) =>
    t.core
      .storeMemory({ user_id: user, content, memory_category: 'semantic', memory_subtype: 'project', ...extra })
      .then((result) => result.memory_id);

  before(async () => {
    t = await createTestCore({ clock: { now: () => new Date(now) } });
  });
  after(async () => {
    await t.cleanup();
  });

  it('links both sides, walks the graph breadth-first with paths, and unlinks', async () => {
    const [a, b, c, d] = [
      await store('g', 'alpha service'),
      await store('g', 'beta queue'),
      await store('g', 'gamma cache'),
      await store('g', 'delta store'),
    ];
    const deps = t.deps;
    await linkMemories(deps, 'g', a, b);
    await linkMemories(deps, 'g', b, c);
    await linkMemories(deps, 'g', c, d);
    assert.equal((await linkMemories(deps, 'g', b, a)).changed, false);
    const walk = await relatedMemories(deps, { user_id: 'g', memory_id: a, max_depth: 2 });
    assert.deepEqual(
      walk.related_memories.map((entry) => [entry.memory_id, entry.depth, entry.path]),
      [
        [b, 1, [a, b]],
        [c, 2, [a, b, c]],
      ],
    );
    await unlinkMemories(deps, 'g', b, c);
    assert.deepEqual((await t.core.getMemory('g', c)).related_memories, [d]);
    await assert.rejects(linkMemories(deps, 'other', a, b), (error) => MemoryError.is(error, 'MEMORY_NOT_FOUND'));
    await assert.rejects(linkMemories(deps, 'g', a, a), (error) => MemoryError.is(error, 'INVALID_INPUT'));
  });

  it('auto-links a memory to similar ones above the threshold', async () => {
    const target = await store('al', 'Postgres connection pool size is set in config/db.yaml for the orders service');
    const similar = await store('al', 'The orders service reads its Postgres connection pool size from config/db.yaml');
    await store('al', 'Team lunch is on Thursdays');
    const result = await t.core.autoLinkSimilar({ user_id: 'al', memory_id: target, threshold: 0.5 });
    assert.deepEqual(
      result.linked.map((entry) => entry.memory_id),
      [similar],
    );
    assert.ok((await t.core.getMemory('al', similar)).related_memories.includes(target));
  });

  it('consolidates near-duplicates into one traceable memory and archives the originals', async () => {
    const one = await store('cons', 'Run npm test before pushing to main', { importance: 0.4, entities: ['tool:npm'] });
    const two = await store('cons', 'Always run npm test before pushing to main branch', {
      importance: 0.9,
      metadata: { tags: ['ci'] },
    });
    const other = await store('cons', 'Release notes live in CHANGELOG.md');
    const dry = await consolidateMemories(t.deps, { user_id: 'cons', threshold: 0.7, dry_run: true });
    assert.equal(dry.clusters.length, 1);
    assert.equal(dry.archived_count, 0);
    const result = await consolidateMemories(t.deps, { user_id: 'cons', threshold: 0.7 });
    const [cluster] = result.clusters;
    assert.deepEqual([...cluster.consolidated_from].sort(), [one, two].sort());
    const merged = await t.core.getMemory('cons', cluster.memory_id as string);
    assert.equal(merged.content, 'Always run npm test before pushing to main branch');
    assert.equal(merged.importance, 0.9);
    assert.ok(merged.tags.includes('ci'));
    assert.ok(merged.entities.includes('tool:npm'));
    assert.deepEqual([...(merged.metadata.consolidated_from as string[])].sort(), [one, two].sort());
    const original = await t.core.getMemory('cons', one);
    assert.ok(original.deleted_at);
    assert.equal(original.metadata.consolidated_into, merged.memory_id);
    assert.equal((await t.core.getMemory('cons', other)).deleted_at, null);
  });

  it('uses the summarize hook when one is configured', async () => {
    const withHook = await createTestCore({
      summarize: async (texts) => `Summary of ${texts.length}: deploy with make release`,
    });
    try {
      for (const content of ['Deploy with make release then tag', 'Deploy with make release and then tag it']) {
        await withHook.core.storeMemory({
          user_id: 's',
          content,
          memory_category: 'procedural',
          memory_subtype: 'workflow',
        });
      }
      const result = await consolidateMemories(withHook.deps, { user_id: 's', threshold: 0.7 });
      assert.equal(result.clusters[0].method, 'summarize');
      assert.equal(result.clusters[0].content, 'Summary of 2: deploy with make release');
    } finally {
      await withHook.cleanup();
    }
  });

  it('decays by Ebbinghaus retention into decay_factor, never for pinned, never deleting', async () => {
    const episodic = await t.core.storeMemory({
      user_id: 'd',
      content: 'Met the vendor about invoices',
      memory_category: 'episodic',
      memory_subtype: 'event',
    });
    const pinned = await store('d', 'The prod database is read-only on weekends', { pinned: true });
    const semantic = await store('d', 'Invoices are generated by the billing cron');
    now += 30 * DAY;
    const result = await applyDecay(t.deps, 'd');
    assert.equal(result.decayed, 2);
    const [e, p, s] = await Promise.all([
      t.core.getMemory('d', episodic.memory_id),
      t.core.getMemory('d', pinned),
      t.core.getMemory('d', semantic),
    ]);
    assert.equal(e.decay_factor, Math.round(Math.exp(-1) * 10_000) / 10_000);
    assert.ok(s.decay_factor > e.decay_factor, 'semantic memories are more stable than episodic ones');
    assert.equal(p.decay_factor, 1);
    assert.equal(e.deleted_at, null);
    assert.equal(retention({ ...e, access_count: 10 }, new Date(now)) > e.decay_factor, true);
  });

  it('prunes by age and score with a dry run, sparing pinned memories', async () => {
    const old = await store('p', 'Old sprint notes about the login page', { importance: 0.2 });
    const pinned = await store('p', 'Pinned architecture overview', { pinned: true, importance: 0.2 });
    now += 100 * DAY;
    const fresh = await store('p', 'Fresh decision on the login page', { importance: 0.2 });
    await assert.rejects(pruneMemories(t.deps, { user_id: 'p' }), (error) => MemoryError.is(error, 'INVALID_INPUT'));
    const dry = await pruneMemories(t.deps, { user_id: 'p', older_than_days: 90, dry_run: true });
    assert.deepEqual(
      dry.archived.map((entry) => entry.memory_id),
      [old],
    );
    assert.equal((await t.core.getMemory('p', old)).deleted_at, null);
    const byScore = await pruneMemories(t.deps, { user_id: 'p', max_score: 0.3 });
    assert.deepEqual(byScore.archived.map((entry) => entry.memory_id).sort(), [old, fresh].sort());
    assert.ok((await t.core.getMemory('p', old)).deleted_at);
    assert.equal((await t.core.getMemory('p', pinned)).deleted_at, null);
  });

  it('runs maintenance for every user through the scheduler and reports failures', async () => {
    await store('m1', 'Sprint review is on Mondays');
    const reports: string[] = [];
    const failures: Array<string | null> = [];
    const scheduler = new MaintenanceScheduler(t.deps, {
      users: () => ['m1', 'bad user id!'],
      onReport: (report) => reports.push(report.user_id),
      onError: (_error, user) => failures.push(user),
    });
    scheduler.start();
    assert.equal(scheduler.started, true);
    const result = await scheduler.runOnce();
    scheduler.stop();
    assert.equal(scheduler.started, false);
    assert.deepEqual(reports, ['m1']);
    assert.deepEqual(failures, ['bad user id!']);
    assert.ok(result[0].decay && result[0].consolidation);
    assert.equal(result[0].prune, null);
  });

  it('reports quality with duplicates, contradictions, orphans and a health score', async () => {
    const a = await store('q', 'The default port is 8080');
    await store('q', 'Staging runs the nightly integration tests job at 2am');
    await store('q', 'Staging runs the nightly integration tests job at 2am daily', { memory_subtype: 'environment' });
    const c = await store('q', 'Logs are shipped to Loki');
    await linkMemories(t.deps, 'q', a, c);
    await t.core.forgetMemory({ user_id: 'q', memory_id: c, hard_delete: true });
    const report = await qualityReport(t.deps, 'q');
    assert.equal(report.total_memories, 3);
    assert.equal(report.duplicates.length, 1);
    assert.deepEqual(report.orphaned, [{ memory_id: a, missing_links: [c] }]);
    assert.ok(report.health_score < 100 && report.health_score >= 0);
    assert.match(report.score_explanation, /duplicates/);
    assert.equal((await qualityReport(t.deps, 'nobody')).health_score, 100);
  });

  it('computes analytics by category, source and time bucket', async () => {
    await store('an', 'Uses pnpm workspaces');
    await t.core.storeMemory({
      user_id: 'an',
      content: 'Shipped the search page',
      memory_category: 'episodic',
      memory_subtype: 'outcome',
      source_type: 'conversation',
    });
    const analytics = await memoryAnalytics(t.deps, 'an', { bucket: 'day', buckets: 3 });
    assert.deepEqual(analytics.by_category, { semantic: 1, episodic: 1 });
    assert.deepEqual(analytics.by_source, { explicit: 1, conversation: 1 });
    assert.equal(analytics.created_over_time.length, 3);
    assert.equal(analytics.created_over_time.at(-1)?.count, 2);
    assert.equal(analytics.totals.live, 2);
  });
});
