import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimeExpressions } from '../../../src/core/retrieval/timeExpressions.ts';

// A Wednesday.
const NOW = new Date('2024-03-20T15:30:00Z');

function window(query: string): [string | undefined, string | undefined] {
  const hint = parseTimeExpressions(query, NOW);
  return [hint.after, hint.before];
}

function days(first: string, last: string): [string, string] {
  return [`${first}T00:00:00.000Z`, `${last}T23:59:59.999Z`];
}

/** Each query's window runs from the start of its first day to the end of its last. */
function expectWindows(cases: ReadonlyArray<[query: string, first: string, last: string]>): void {
  for (const [query, first, last] of cases) assert.deepEqual(window(query), days(first, last), query);
}

test('"between X and Y" is one window from the start of X to the end of Y', () => {
  expectWindows([
    ['what did we decide between March 3 and March 10?', '2024-03-03', '2024-03-10'],
    ['between August 11 and August 15 2023', '2023-08-11', '2023-08-15'],
    ['between the 3rd and the 7th of May 2023', '2023-05-03', '2023-05-07'],
    ['between 2021 and 2022', '2021-01-01', '2022-12-31'],
    ['between June 2022 and March 2023', '2022-06-01', '2023-03-31'],
  ]);
});

test('"from X to / until / till / through Y", and "X to Y" without "from"', () => {
  expectWindows([
    ['from May to July 2023', '2023-05-01', '2023-07-31'],
    ['from May 3 until June 2, 2023', '2023-05-03', '2023-06-02'],
    ['from 8 May till 12 May 2023', '2023-05-08', '2023-05-12'],
    ['from 2023-05-08 through 2023-05-10', '2023-05-08', '2023-05-10'],
    ['from 2021 to 2023', '2021-01-01', '2023-12-31'],
    ['what broke August 11 to 15, 2023', '2023-08-11', '2023-08-15'],
    ['the outage June 28 to July 2, 2023', '2023-06-28', '2023-07-02'],
  ]);
});

test('dashed day and month ranges share the month and the year written once', () => {
  expectWindows([
    ['the offsite May 3–7, 2023', '2023-05-03', '2023-05-07'],
    ['the offsite May 3-7 2023', '2023-05-03', '2023-05-07'],
    ['the offsite 3–7 May 2023', '2023-05-03', '2023-05-07'],
    ['releases May–July 2023', '2023-05-01', '2023-07-31'],
    ['the 2021-2022 roadmap', '2021-01-01', '2022-12-31'],
    ['from 2023-05 to 2023-07', '2023-05-01', '2023-07-31'],
  ]);
});

test('the year carries from the end to the start, a year back when the start would follow the end', () => {
  expectWindows([
    ['from December to February 2024', '2023-12-01', '2024-02-29'],
    ['from December 2023 to February', '2023-12-01', '2024-02-29'],
    ['between December 28 and January 3, 2023', '2022-12-28', '2023-01-03'],
    // Named backwards, it is still the time between them.
    ['between 2023 and 2021', '2021-01-01', '2023-12-31'],
  ]);
});

test('a range without a year is yearless: its start is the latest occurrence not after now', () => {
  const may = parseTimeExpressions('what did we ship May 3–7?', NOW);
  assert.deepEqual([may.after, may.before], days('2023-05-03', '2023-05-07'));
  assert.equal(may.yearless, true);
  assert.deepEqual(window('from March 3 to March 10'), days('2024-03-03', '2024-03-10'));
  // November is past in 2023, February follows it in 2024.
  assert.deepEqual(window('from November to February'), days('2023-11-01', '2024-02-29'));
  assert.equal(parseTimeExpressions('between August 11 and August 15 2023', NOW).yearless, undefined);
  // A yearless range beside a dated phrase: the window is not made only of yearless dates.
  assert.equal(parseTimeExpressions('from May to July, in 2022', NOW).yearless, undefined);
});

test('the whole range is the matched phrase, so its words are not topics', () => {
  assert.deepEqual(parseTimeExpressions('what did we decide between March 3 and March 10', NOW).matched, [
    'between March 3 and March 10',
  ]);
  assert.deepEqual(parseTimeExpressions('the offsite May 3–7, 2023', NOW).matched, ['May 3–7, 2023']);
});

test('near misses that are not ranges', () => {
  assert.deepEqual(parseTimeExpressions('what is between the API and the UI?', NOW), { matched: [] });
  assert.deepEqual(parseTimeExpressions('raise it from 3 to 5 retries', NOW), { matched: [] });
  assert.deepEqual(parseTimeExpressions('pages 10-12 of the spec', NOW), { matched: [] });
  assert.deepEqual(parseTimeExpressions('May I march to the config?', NOW), { matched: [] });
  // A single date stays a single date; an ISO date is not an ISO month dashed to a day.
  assert.deepEqual(window('deploys on 2023-05-08'), days('2023-05-08', '2023-05-08'));
  assert.deepEqual(window('between 5 and 10 ms in May 2023'), days('2023-05-01', '2023-05-31'));
  // An impossible endpoint is no range.
  assert.deepEqual(parseTimeExpressions('between February 30 and February 31 2023', NOW).matched, []);
});

test('a range may end now', () => {
  expectWindows([
    ['what changed between May 2023 and now', '2023-05-01', '2024-03-20'],
    ['from December until today', '2023-12-01', '2024-03-20'],
    // "today" alone is still the day.
    ['what did I do today', '2024-03-20', '2024-03-20'],
  ]);
});

test('the day, week, fortnight, month or year before or after a date is that period next to it', () => {
  assert.deepEqual(window('where was Tim the week before 16 November 2023?'), days('2023-11-09', '2023-11-15'));
  assert.deepEqual(window('the day after 2023-05-08'), days('2023-05-09', '2023-05-09'));
  assert.deepEqual(window('the fortnight after May 2023'), days('2023-06-01', '2023-06-14'));
  assert.deepEqual(window('the month before 15 March 2023'), days('2023-02-15', '2023-03-14'));
  // A day the month next to it lacks is that month's last day, not a day rolled into the next month.
  assert.deepEqual(window('the month before 31 March 2023'), days('2023-02-28', '2023-03-30'));
  assert.deepEqual(window('the month after 30 January 2024'), days('2024-01-31', '2024-02-29'));
  assert.deepEqual(parseTimeExpressions('the week before 16 November 2023', NOW).matched, [
    'the week before 16 November 2023',
  ]);
  // Without a period, "before" still bounds one side only.
  assert.deepEqual(window('bugs before 16 November 2023'), [undefined, '2023-11-15T23:59:59.999Z']);
});
