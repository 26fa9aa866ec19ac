import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionsTime } from '../../../src/core/retrieval/timeMentions.ts';
import { parseTimeExpressions } from '../../../src/core/retrieval/timeExpressions.ts';
import {
  switchOffTimeRulesForEvaluation,
  TIME_RULES,
  timeRuleOn,
} from '../../../src/core/retrieval/timeRuleSwitches.ts';

const NOW = new Date('2024-03-20T15:30:00Z');

test('every time rule is on unless an evaluation switches it off', () => {
  for (const rule of TIME_RULES) assert.equal(timeRuleOn(rule), true, rule);
});

test('an evaluation switches off exactly the rules it names, and null switches them back on', (t) => {
  t.after(() => switchOffTimeRulesForEvaluation(null));
  switchOffTimeRulesForEvaluation(['timeMentions.relative', 'timeRanges']);
  assert.deepEqual(
    TIME_RULES.filter((rule) => !timeRuleOn(rule)),
    ['timeRanges', 'timeMentions.relative'],
  );
  // Each family of time mentions is its own rule: the relative days go, the calendar dates stay.
  assert.equal(mentionsTime('I went there yesterday'), false);
  assert.equal(mentionsTime('I went there on 8 May 2023'), true);
  // Without the range rule, "from May to July 2023" is no longer one window from May to July.
  assert.notEqual(parseTimeExpressions('from May to July 2023', NOW).after, '2023-05-01T00:00:00.000Z');
  switchOffTimeRulesForEvaluation(null);
  assert.equal(mentionsTime('I went there yesterday'), true);
  assert.equal(parseTimeExpressions('from May to July 2023', NOW).after, '2023-05-01T00:00:00.000Z');
  assert.equal(
    TIME_RULES.every((rule) => timeRuleOn(rule)),
    true,
  );
});
