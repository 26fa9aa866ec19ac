import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { abbreviatedProjects, abbreviates, type TermEvidence } from '../../../src/core/retrieval/namedScope.ts';
import { createTestCore, type TestCore } from '../../support/testCore.ts';

describe('a project name abbreviated', () => {
  it('starts the name and keeps its letters in order', () => {
    assert.ok(abbreviates('nu', 'nushell'));
    assert.ok(abbreviates('dcr', 'dotcom-rendering'));
    assert.ok(abbreviates('fin', 'finance-hub'));
    assert.ok(!abbreviates('rd', 'dotcom-rendering'), 'starts where the name starts');
    assert.ok(!abbreviates('dcx', 'dotcom-rendering'), 'every letter is in the name, in order');
    assert.ok(!abbreviates('n', 'nushell'), 'one letter abbreviates nothing');
    assert.ok(!abbreviates('nushell', 'nushell'), 'the whole name is the name, not an abbreviation');
    assert.ok(!abbreviates('finance', 'finance-hub'), 'a word of the name is not the name');
  });

  it('names a project only when that project’s memories alone use the word', () => {
    const only =
      (projects: (string | null)[], documents = projects.length) =>
      (): TermEvidence => ({
        documents,
        candidateProjects: projects,
      });
    const known = ['nushell', 'grafana'];
    assert.deepEqual(
      [...abbreviatedProjects('can nu code rely on it', known, only(['nushell', 'nushell']))],
      [['nushell', ['nu']]],
    );
    assert.equal(abbreviatedProjects('can nu code rely on it', known, only(['nushell', 'grafana'])).size, 0);
    assert.equal(
      abbreviatedProjects('can nu code rely on it', known, only(['nushell'], 3)).size,
      0,
      'memories outside the candidates may use it too',
    );
    assert.equal(abbreviatedProjects('can nu code rely on it', known, only([null])).size, 0);
    assert.equal(abbreviatedProjects('can nu code rely on it', known, () => null).size, 0);
  });
});

/** A question that names its project by the short name its memories use is about that project. */
describe('recall scoped by an abbreviated project name', () => {
  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    const store = (content: string, project: string) =>
      test.core.storeMemory({
        user_id: user,
        content,
        memory_category: 'semantic',
        memory_subtype: 'project',
        metadata: { project },
      });
    await store('nushell ships the nu binary through cargo install nu and GitHub release builds.', 'nushell');
    await store('nushell stays two releases behind the newest stable compiler.', 'nushell');
    await store('grafana release builds pin the compiler and the Go toolchain version for every release.', 'grafana');
    for (const topic of ['panel plugins', 'alert rules', 'dashboards', 'data sources'])
      await store(`grafana documents its ${topic} in the contributing guide.`, 'grafana');
  });
  after(() => test.cleanup());

  it('ranks the abbreviated project’s memories first and leaves other projects’ below the floor', async () => {
    const question = 'which compiler release can nu code rely on';
    const ranked = await test.core.recall({ user_id: user, query: question, min_similarity: 0 });
    assert.match(ranked.memories[0]?.content ?? '', /^nushell stays two releases/);
    const grafana = ranked.memories.find((memory) => memory.content.startsWith('grafana release'));
    assert.ok(grafana?.score_breakdown.signals.includes('other_project'), 'grafana’s memory is about another project');
    const answered = await test.core.recall({ user_id: user, query: question });
    assert.ok(answered.memories.every((memory) => memory.content.startsWith('nushell')));
  });

  it('reads no abbreviation into a word other projects’ memories use', async () => {
    const ranked = await test.core.recall({
      user_id: user,
      query: 'which release builds pin the compiler',
      min_similarity: 0,
    });
    assert.ok(ranked.memories.every((memory) => !memory.score_breakdown.signals.includes('other_project')));
  });
});
