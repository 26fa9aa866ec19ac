import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeStatus } from '../../../src/vscode/status/statusText.ts';

const ready = {
  state: 'ready' as const,
  backend: 'sqlite',
  health: 'healthy',
  healthDetail: '',
  memories: 12,
  workingTokens: 1234,
  workingBudget: 8000,
  project: 'git:github.com/a/b',
};

test('ready: memory count and working memory of the budget; tooltip names backend, health and scope', () => {
  const view = describeStatus(ready);
  assert.equal(view.text, '$(database) 12 memories · working 1.2k/8k tokens');
  assert.equal(describeStatus({ ...ready, memories: 1 }).text, '$(database) 1 memory · working 1.2k/8k tokens');
  assert.match(view.tooltip, /embedded store, connected/);
  assert.match(view.tooltip, /12 long-term memories in project git:github.com\/a\/b/);
  assert.match(view.tooltip, /this window: 1,234 of 8,000 tokens/);
  assert.match(describeStatus({ ...ready, project: null }).tooltip, /in all projects/);
  // Markdown joins single newlines into one line: every line must be its own paragraph.
  assert.doesNotMatch(view.tooltip, /[^\n]\n[^\n]/);
  assert.equal(view.severity, 'ok');
});

test('degraded and offline backends are flagged', () => {
  assert.deepEqual(
    [
      describeStatus({ ...ready, health: 'degraded' }).severity,
      describeStatus({ ...ready, health: 'unhealthy', backend: 'firebolt-core' }).severity,
    ],
    ['warning', 'error'],
  );
  assert.match(
    describeStatus({ ...ready, health: 'unhealthy', backend: 'firebolt-core' }).tooltip,
    /firebolt-core store, offline/,
  );
});

test('starting and failed states', () => {
  assert.match(describeStatus({ state: 'starting' }).text, /Memory/);
  assert.equal(describeStatus({ state: 'error', message: 'disk full' }).severity, 'error');
  assert.match(describeStatus({ state: 'error', message: 'disk full' }).tooltip, /disk full/);
});
