import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimeExpressions, timePhrasesOf } from '../../../src/core/retrieval/timeExpressions.ts';

// A Wednesday.
const NOW = new Date('2024-03-20T15:30:00Z');

function range(query: string): [string | undefined, string | undefined] {
  const hint = parseTimeExpressions(query, NOW);
  return [hint.after, hint.before];
}

test('relative days', () => {
  assert.deepEqual(range('what did we do yesterday'), ['2024-03-19T00:00:00.000Z', '2024-03-19T23:59:59.999Z']);
  assert.deepEqual(range('what did I do today'), ['2024-03-20T00:00:00.000Z', '2024-03-20T23:59:59.999Z']);
  assert.deepEqual(range('the day before yesterday'), ['2024-03-18T00:00:00.000Z', '2024-03-18T23:59:59.999Z']);
  assert.deepEqual(range('what broke last Friday?'), ['2024-03-15T00:00:00.000Z', '2024-03-15T23:59:59.999Z']);
  assert.deepEqual(range('on Wednesday'), ['2024-03-13T00:00:00.000Z', '2024-03-13T23:59:59.999Z']);
});

test('last night, last weekend, a weekday abbreviated and "on the Nth"', () => {
  assert.deepEqual(range('what did we cook last night'), ['2024-03-19T00:00:00.000Z', '2024-03-19T23:59:59.999Z']);
  // Wednesday 20 March: the weekend before is 16-17 March; on Saturday 23 or Sunday 24 it is still that one.
  assert.deepEqual(range('where did we go last weekend'), ['2024-03-16T00:00:00.000Z', '2024-03-17T23:59:59.999Z']);
  for (const now of ['2024-03-23T10:00:00Z', '2024-03-24T10:00:00Z'])
    assert.deepEqual(
      [
        parseTimeExpressions('this past weekend', new Date(now)).after,
        parseTimeExpressions('this past weekend', new Date(now)).before,
      ],
      ['2024-03-16T00:00:00.000Z', '2024-03-17T23:59:59.999Z'],
    );
  assert.deepEqual(range('last Fri'), ['2024-03-15T00:00:00.000Z', '2024-03-15T23:59:59.999Z']);
  assert.deepEqual(range('we met last Tues'), ['2024-03-19T00:00:00.000Z', '2024-03-19T23:59:59.999Z']);
  assert.deepEqual(range('on Thurs'), ['2024-03-14T00:00:00.000Z', '2024-03-14T23:59:59.999Z']);
  // The day of the latest month that has it, not after now.
  assert.deepEqual(range('we met on the 15th'), ['2024-03-15T00:00:00.000Z', '2024-03-15T23:59:59.999Z']);
  assert.deepEqual(range('we met on the 25th'), ['2024-02-25T00:00:00.000Z', '2024-02-25T23:59:59.999Z']);
  assert.deepEqual(range('we met on the 31st'), ['2024-01-31T00:00:00.000Z', '2024-01-31T23:59:59.999Z']);
  // "the 15th of May" is the date of May, read by the day-month pattern.
  assert.deepEqual(range('on the 15th of May'), ['2023-05-15T00:00:00.000Z', '2023-05-15T23:59:59.999Z']);
});

test('a time relative to the present is told from the calendar date the question names', () => {
  // 23 January 2022 was a Sunday: "last Friday" from it is the 21st; the window runs to the end of the 23rd.
  assert.deepEqual(range('What did Joanna finish last Friday, on 23 January, 2022?'), [
    '2022-01-21T00:00:00.000Z',
    '2022-01-23T23:59:59.999Z',
  ]);
  // Monday 6 November 2023: last week is 30 October to 5 November.
  assert.deepEqual(range("Tim's writing issue last week, as mentioned on November 6, 2023"), [
    '2023-10-30T00:00:00.000Z',
    '2023-11-06T23:59:59.999Z',
  ]);
  assert.deepEqual(range('what did Maria do last weekend before April 10, 2023'), [
    '2023-04-08T00:00:00.000Z',
    '2023-04-10T23:59:59.999Z',
  ]);
  const vague = parseTimeExpressions('what did Maria start recently, as mentioned on 3 June, 2023', NOW);
  assert.equal(vague.boostAround, '2023-06-03T00:00:00.000Z');
  // Monday 6 November 2023: a plan for next week reaches to its end, 19 November.
  assert.deepEqual(range('what did she plan for next week, on 6 November 2023'), [
    '2023-11-06T00:00:00.000Z',
    '2023-11-19T23:59:59.999Z',
  ]);
  // A date without a year gives the relative phrase no year to be read from: the date alone is the
  // window (placed later where the memories are), never today's last week met with a November.
  const yearless = parseTimeExpressions("Tim's writing issue last week, as mentioned on November 6", NOW);
  assert.deepEqual(
    [yearless.after, yearless.before, yearless.yearless],
    ['2023-11-06T00:00:00.000Z', '2023-11-06T23:59:59.999Z', true],
  );
  assert.ok(yearless.matched.includes('last week'), 'its words are still a time, not a topic');
  // Without a calendar date, relative phrases are told from now.
  assert.deepEqual(range('what did Joanna finish last Friday'), [
    '2024-03-15T00:00:00.000Z',
    '2024-03-15T23:59:59.999Z',
  ]);
});

test('a year after a comma with no space', () => {
  assert.deepEqual(range('the photo shared on December 1,2021'), [
    '2021-12-01T00:00:00.000Z',
    '2021-12-01T23:59:59.999Z',
  ]);
  assert.deepEqual(range('on 8 May,2021'), ['2021-05-08T00:00:00.000Z', '2021-05-08T23:59:59.999Z']);
});

test('calendar weeks, months and years', () => {
  assert.deepEqual(range('last week'), ['2024-03-11T00:00:00.000Z', '2024-03-17T23:59:59.999Z']);
  assert.deepEqual(range('this week'), ['2024-03-18T00:00:00.000Z', '2024-03-24T23:59:59.999Z']);
  assert.deepEqual(range('last month'), ['2024-02-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z']);
  assert.deepEqual(range('last year'), ['2023-01-01T00:00:00.000Z', '2023-12-31T23:59:59.999Z']);
  assert.deepEqual(range('what shipped in 2023'), ['2023-01-01T00:00:00.000Z', '2023-12-31T23:59:59.999Z']);
});

test('month names resolve to the latest past occurrence', () => {
  assert.deepEqual(range('what happened in May'), ['2023-05-01T00:00:00.000Z', '2023-05-31T23:59:59.999Z']);
  assert.deepEqual(range('during March'), ['2024-03-01T00:00:00.000Z', '2024-03-31T23:59:59.999Z']);
  assert.deepEqual(range('May 2023 release'), ['2023-05-01T00:00:00.000Z', '2023-05-31T23:59:59.999Z']);
  assert.deepEqual(range('on 8 May'), ['2023-05-08T00:00:00.000Z', '2023-05-08T23:59:59.999Z']);
  assert.deepEqual(range('on March 3rd'), ['2024-03-03T00:00:00.000Z', '2024-03-03T23:59:59.999Z']);
  assert.deepEqual(range('the 8th of May, 2023'), ['2023-05-08T00:00:00.000Z', '2023-05-08T23:59:59.999Z']);
  assert.deepEqual(range('June 5, 2022'), ['2022-06-05T00:00:00.000Z', '2022-06-05T23:59:59.999Z']);
});

test('modal "may" and verbs are not dates', () => {
  assert.deepEqual(parseTimeExpressions('this may take a while', NOW), { matched: [] });
  assert.deepEqual(parseTimeExpressions('May I march on the config?', NOW), { matched: [] });
  assert.deepEqual(parseTimeExpressions('port 2023 is busy', NOW), { matched: [] });
});

test('ISO dates and months', () => {
  assert.deepEqual(range('deploys on 2023-05-08'), ['2023-05-08T00:00:00.000Z', '2023-05-08T23:59:59.999Z']);
  assert.deepEqual(range('at 2023-05-08T10:00:00Z'), ['2023-05-08T00:00:00.000Z', '2023-05-08T23:59:59.999Z']);
  assert.deepEqual(range('in 2023-05'), ['2023-05-01T00:00:00.000Z', '2023-05-31T23:59:59.999Z']);
  assert.deepEqual(parseTimeExpressions('on 2023-02-30', NOW), { matched: [] });
});

test('before, after, since and until bound one side', () => {
  assert.deepEqual(range('bugs before May 2023'), [undefined, '2023-04-30T23:59:59.999Z']);
  assert.deepEqual(range('after 2023-05-08'), ['2023-05-09T00:00:00.000Z', undefined]);
  assert.deepEqual(range('since last month'), ['2024-02-01T00:00:00.000Z', undefined]);
  assert.deepEqual(range('until 2022'), [undefined, '2022-12-31T23:59:59.999Z']);
  assert.deepEqual(range('after January 2023 and before March 2023'), [
    '2023-02-01T00:00:00.000Z',
    '2023-02-28T23:59:59.999Z',
  ]);
});

test('vague phrases give a point to boost around, not a filter', () => {
  const hint = parseTimeExpressions('the bug from two weeks ago', NOW);
  assert.deepEqual(hint, { matched: ['two weeks ago'], boostAround: '2024-03-06T15:30:00.000Z' });
  assert.equal(parseTimeExpressions('3 days ago', NOW).boostAround, '2024-03-17T15:30:00.000Z');
  assert.equal(parseTimeExpressions('a couple of months ago', NOW).boostAround, '2024-01-20T15:30:00.000Z');
  assert.equal(parseTimeExpressions('a year ago', NOW).boostAround, '2023-03-20T15:30:00.000Z');
  assert.equal(parseTimeExpressions('what did I change recently', NOW).boostAround, NOW.toISOString());
});

test('reports every matched phrase', () => {
  assert.deepEqual(parseTimeExpressions('Yesterday and in May 2023', NOW).matched.sort(), ['May 2023', 'Yesterday']);
  assert.deepEqual(parseTimeExpressions('postgres connection pool', NOW), { matched: [] });
});

test('a part of a period: halves, thirds, its beginning and end', () => {
  assert.deepEqual(range('what happened in the first half of September 2022'), [
    '2022-09-01T00:00:00.000Z',
    '2022-09-15T23:59:59.999Z',
  ]);
  assert.deepEqual(range('the second half of last year'), ['2023-07-01T00:00:00.000Z', '2023-12-31T23:59:59.999Z']);
  assert.deepEqual(range('what did we ship in early February'), [
    '2024-02-01T00:00:00.000Z',
    '2024-02-10T23:59:59.999Z',
  ]);
  assert.deepEqual(range('mid-May 2023'), ['2023-05-11T00:00:00.000Z', '2023-05-21T23:59:59.999Z']);
  assert.deepEqual(range('late 2023'), ['2023-09-01T00:00:00.000Z', '2023-12-31T23:59:59.999Z']);
  assert.deepEqual(range('the end of last week'), ['2024-03-16T00:00:00.000Z', '2024-03-17T23:59:59.999Z']);
  // After a bound the end is the period's last day, the beginning its first.
  assert.deepEqual(range('before the end of 2023'), [undefined, '2023-12-30T23:59:59.999Z']);
  assert.deepEqual(range('since the beginning of March'), ['2024-03-01T00:00:00.000Z', undefined]);
  // The part's words are part of the time phrase, not topics of the query.
  assert.deepEqual(parseTimeExpressions('the first half of September 2022', NOW).matched, [
    'the first half of September 2022',
  ]);
  // A day has no parts worth naming; "the end of the day" names no period.
  assert.deepEqual(range('at the end of the day'), [undefined, undefined]);
  assert.deepEqual(range('early yesterday'), ['2024-03-19T00:00:00.000Z', '2024-03-19T23:59:59.999Z']);
});

test('plans: tomorrow, next week, month, year and weekend, this coming Friday, in two weeks', () => {
  // Wednesday 20 March 2024.
  assert.deepEqual(range('what do we do tomorrow'), ['2024-03-21T00:00:00.000Z', '2024-03-21T23:59:59.999Z']);
  assert.deepEqual(range('the day after tomorrow'), ['2024-03-22T00:00:00.000Z', '2024-03-22T23:59:59.999Z']);
  assert.deepEqual(range('plans for next week'), ['2024-03-25T00:00:00.000Z', '2024-03-31T23:59:59.999Z']);
  assert.deepEqual(range('the release next month'), ['2024-04-01T00:00:00.000Z', '2024-04-30T23:59:59.999Z']);
  const december = parseTimeExpressions('we move next month', new Date('2023-12-10T12:00:00Z'));
  assert.deepEqual([december.after, december.before], ['2024-01-01T00:00:00.000Z', '2024-01-31T23:59:59.999Z']);
  assert.deepEqual(range('the coming year'), ['2025-01-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z']);
  assert.deepEqual(range('camping this weekend'), ['2024-03-23T00:00:00.000Z', '2024-03-24T23:59:59.999Z']);
  assert.deepEqual(range('camping next weekend'), ['2024-03-30T00:00:00.000Z', '2024-03-31T23:59:59.999Z']);
  // The first such day after today, today's own a week on.
  assert.deepEqual(range('this coming Friday'), ['2024-03-22T00:00:00.000Z', '2024-03-22T23:59:59.999Z']);
  assert.deepEqual(range('next Tues'), ['2024-03-26T00:00:00.000Z', '2024-03-26T23:59:59.999Z']);
  assert.deepEqual(range('next Wednesday'), ['2024-03-27T00:00:00.000Z', '2024-03-27T23:59:59.999Z']);
  // A count of units ahead is vague, as "two weeks ago" is: a point.
  assert.equal(parseTimeExpressions('the exam in two weeks', NOW).boostAround, '2024-04-03T15:30:00.000Z');
  assert.equal(parseTimeExpressions('3 days from now', NOW).boostAround, '2024-03-23T15:30:00.000Z');
  assert.deepEqual(parseTimeExpressions('in a few days', NOW).matched, ['in a few days']);
  // Every one of them points ahead; "this past Friday" and "this week" do not.
  assert.ok(
    timePhrasesOf('tomorrow, next week, this coming Friday, in two weeks', NOW).every((phrase) => phrase.ahead),
  );
  assert.ok(timePhrasesOf('this past Friday, this week', NOW).every((phrase) => !phrase.ahead));
});

test('read ahead, a phrase that does not say which way it points names its next occurrence', () => {
  const ahead = (text: string): [string, string, boolean][] =>
    timePhrasesOf(text, NOW, { ahead: true }).map((phrase) => [
      new Date(phrase.start).toISOString(),
      new Date(phrase.end).toISOString(),
      phrase.ahead,
    ]);
  // "on Friday" said on Wednesday 20 March: the 22nd (read back, the 15th); "on Wednesday" a week on.
  assert.deepEqual(ahead('my exam is on Friday'), [['2024-03-22T00:00:00.000Z', '2024-03-23T00:00:00.000Z', true]]);
  assert.deepEqual(ahead('on Wednesday'), [['2024-03-27T00:00:00.000Z', '2024-03-28T00:00:00.000Z', true]]);
  assert.deepEqual(ahead('on the 15th'), [['2024-04-15T00:00:00.000Z', '2024-04-16T00:00:00.000Z', true]]);
  assert.deepEqual(ahead('on the 31st'), [['2024-03-31T00:00:00.000Z', '2024-04-01T00:00:00.000Z', true]]);
  assert.deepEqual(ahead('the show on 8 May'), [['2024-05-08T00:00:00.000Z', '2024-05-09T00:00:00.000Z', true]]);
  assert.deepEqual(ahead('a trip in February'), [['2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z', true]]);
  // Today's own month and day are not over yet.
  assert.deepEqual(ahead('busy in March'), [['2024-03-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z', true]]);
  // A phrase that says it points back still does.
  assert.deepEqual(ahead('last Fri'), [['2024-03-15T00:00:00.000Z', '2024-03-16T00:00:00.000Z', false]]);
  // Read back (the default), nothing changes.
  assert.equal(new Date(timePhrasesOf('on Friday', NOW)[0].start).toISOString(), '2024-03-15T00:00:00.000Z');
  assert.equal(new Date(timePhrasesOf('on 8 May', NOW)[0].start).toISOString(), '2023-05-08T00:00:00.000Z');
});
