import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectCorrection } from '../../../src/core/extraction/detectCorrection.ts';
import { RuleBasedExtractor, extractByRules } from '../../../src/core/extraction/ruleBasedExtractor.ts';
import { splitSentences } from '../../../src/core/extraction/splitSentences.ts';

describe('sentence splitting', () => {
  it('splits sentences and bullets but not files, versions, abbreviations or code', () => {
    assert.deepEqual(
      splitSentences(
        'We pinned Node 24.1. See src/db/schema.ts, e.g. the users table.\n- Use pnpm\n- Never push to main',
      ),
      ['We pinned Node 24.1.', 'See src/db/schema.ts, e.g. the users table.', 'Use pnpm', 'Never push to main'],
    );
  });

  it('keeps a sentence that refers back attached to the one before', () => {
    assert.deepEqual(splitSentences('We moved auth to Keycloak. It runs on port 8443. Billing stays on Stripe.'), [
      'We moved auth to Keycloak. It runs on port 8443.',
      'Billing stays on Stripe.',
    ]);
  });

  it('keeps a fenced code block whole', () => {
    const [first] = splitSentences('Run this:\n```\nnpm ci. Then npm test.\n```');
    assert.match(first ?? '', /```\nnpm ci\. Then npm test\.\n```/);
  });
});

describe('rule-based extraction', () => {
  it('yields one classified memory per substantive sentence and drops small talk', async () => {
    const extracted = await new RuleBasedExtractor().extract({
      content:
        'Thanks, that helps. We decided to use PostgreSQL 15 for the event store. Use pnpm instead of npm in this repo. Let me think about the rest.',
    });
    assert.deepEqual(
      extracted.map((memory) => [memory.category, memory.subtype, memory.content]),
      [
        ['episodic', 'decision', 'We decided to use PostgreSQL 15 for the event store.'],
        ['procedural', 'tool_usage', 'Use pnpm instead of npm in this repo.'],
      ],
    );
    assert.deepEqual(extracted[1]?.fact, { category: 'preference', key: 'package_manager', value: 'pnpm' });
  });

  it('turns "actually, it is X not Y" into a correction of Y', () => {
    const [memory] = extractByRules('Actually, the staging database listens on port 5433, not 5432.');
    assert.equal(memory?.content, 'The staging database listens on port 5433, not 5432');
    assert.deepEqual(memory?.correction, { replaces: '5432' });
    assert.equal(`${memory?.category}.${memory?.subtype}`, 'semantic.environment');
    assert.deepEqual(detectCorrection('No, we deploy with ArgoCD rather than Flux'), {
      statement: 'We deploy with ArgoCD rather than Flux',
      replaces: 'Flux',
    });
    assert.deepEqual(detectCorrection('I meant not yarn but pnpm'), { statement: 'pnpm', replaces: 'yarn' });
    assert.equal(detectCorrection('Use pnpm instead of npm'), null);
  });

  it('finds identity facts and entities', () => {
    const [name, role] = extractByRules("My name is Jonas Berg. I'm a senior backend engineer on the payments team.");
    assert.deepEqual(name?.fact, { category: 'identity', key: 'name', value: 'Jonas Berg' });
    assert.deepEqual(role?.fact, { category: 'identity', key: 'role', value: 'senior backend engineer' });
    const [withEntity] = extractByRules('The fix was to bump the timeout in src/net/client.ts to 30 s.');
    assert.ok(withEntity?.entities.includes('file:src/net/client.ts'));
    assert.equal(withEntity?.subtype, 'outcome');
  });

  it('keeps a message no rule recognises whole rather than losing it, and nothing of an acknowledgement', () => {
    assert.deepEqual(
      extractByRules('The blob frobnicates the widgets nicely').map((memory) => memory.content),
      ['The blob frobnicates the widgets nicely'],
    );
    assert.deepEqual(extractByRules('ok thanks'), []);
    assert.deepEqual(extractByRules('Sounds good!'), []);
  });
});
