import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BRIDGE_CREDIT, queryConcepts } from '../../../src/core/retrieval/queryConcepts.ts';
import { softwareDescribedAs } from '../../../src/core/text/vocabulary/describedSoftware.ts';
import { createTestCore, storeNotes, type TestCore } from '../../support/testCore.ts';

const describedOf = (query: string, term: string): string[] =>
  (queryConcepts(query).find((concept) => concept.term === term)?.alternatives ?? [])
    .filter((alternative) => alternative.kind === 'described')
    .map((alternative) => alternative.label);

describe('software named for what Debian says it is', () => {
  it('lists the software whose descriptions link it to an index term, strongest first', () => {
    assert.ok(softwareDescribedAs('migrat').includes('alembic'), 'Alembic: "database migration tool for SQLAlchemy"');
    assert.ok(softwareDescribedAs('metric').includes('prometheus'));
    assert.deepEqual(softwareDescribedAs('zzzz'), []);
  });

  it('leaves out packaging words and platforms that everything is built on', () => {
    assert.deepEqual(softwareDescribedAs('librari'), [], '"library" is in more than 2 % of the descriptions');
    for (const names of [softwareDescribedAs('contain'), softwareDescribedAs('databas')])
      for (const platform of ['linux', 'json', 'debian', 'gnome']) assert.ok(!names.includes(platform), platform);
  });

  it('bridges a topical query word to the software at its own credit, never a generic word', () => {
    assert.ok(describedOf('how do I create a database migration', 'migrat').includes('migration ← alembic'));
    const bridge = queryConcepts('database migration')
      .find((concept) => concept.term === 'migrat')
      ?.alternatives.find((alternative) => alternative.kind === 'described');
    assert.equal(bridge?.credit, BRIDGE_CREDIT.described);
    assert.equal(bridge?.label, 'migration ← alembic');
    assert.deepEqual(describedOf('how do I create a database migration', 'creat'), []);
  });

  let test: TestCore;
  const user = 'dev';
  before(async () => {
    test = await createTestCore();
    await storeNotes(test, user, [
      'Schema changes go through Alembic: alembic revision --autogenerate, review the script, then alembic upgrade head.',
      'Metrics go to Prometheus and every service exposes them on port 9090.',
      'The team lunch is on Fridays at the Thai place.',
      'Invoices are rendered as PDF by the billing worker.',
    ]);
  });
  after(() => test.cleanup());

  it('answers a question that names the kind of software with the memory that names only the software, and says so', async () => {
    const result = await test.core.recall(
      { user_id: user, query: 'how do I create a database migration', min_similarity: 0 },
      { logAccess: false },
    );
    assert.equal(result.memories.length, 1, 'no other memory has a word of the question or a bridge of one');
    assert.match(result.memories[0]?.content ?? '', /Alembic/);
    assert.match(result.memories[0]?.why_matched ?? '', /migration ← alembic/);
  });

  it('finds the monitoring memory for a question about service monitoring', async () => {
    const result = await test.core.recall(
      { user_id: user, query: 'where can I see the metrics of a service' },
      { logAccess: false },
    );
    assert.match(result.memories[0]?.content ?? '', /Prometheus/);
  });
});
