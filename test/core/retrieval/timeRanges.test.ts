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

test('"between X and Y" is one window from the start of X to the end of Y', () => {
  assert.deepEqual(window('what did we decide between March 3 and March 10?'), days('2024-03-03', '2024-03-10'));
  assert.deepEqual(window('between August 11 and August 15 2023'), days('2023-08-11', '2023-08-15'));
  assert.deepEqual(window('between the 3rd and the 7th of May 2023'), days('2023-05-03', '2023-05-07'));
  assert.deepEqual(window('between 2021 and 2022'), days('2021-01-01', '2022-12-31'));
  assert.deepEqual(window('between June 2022 and March 2023'), days('2022-06-01', '2023-03-31'));
});

test('"from X to / until / till / through Y", and "X to Y" without "from"', () => {
  assert.deepEqual(window('from May to July 2023'), days('2023-05-01', '2023-07-31'));
  assert.deepEqual(window('from May 3 until June 2, 2023'), days('2023-05-03', '2023-06-02'));
  assert.deepEqual(window('from 8 May till 12 May 2023'), days('2023-05-08', '2023-05-12'));
  assert.deepEqual(window('from 2023-05-08 through 2023-05-10'), days('2023-05-08', '2023-05-10'));
  assert.deepEqual(window('from 2021 to 2023'), days('2021-01-01', '2023-12-31'));
  assert.deepEqual(window('what broke August 11 to 15, 2023'), days('2023-08-11', '2023-08-15'));
  assert.deepEqual(window('the outage June 28 to July 2, 2023'), days('2023-06-28', '2023-07-02'));
});

test('dashed day and month ranges share the month and the year written once', () => {
  assert.deepEqual(window('the offsite May 3–7, 2023'), days('2023-05-03', '2023-05-07'));
  assert.deepEqual(window('the offsite May 3-7 2023'), days('2023-05-03', '2023-05-07'));
  assert.deepEqual(window('the offsite 3–7 May 2023'), days('2023-05-03', '2023-05-07'));
  assert.deepEqual(window('releases May–July 2023'), days('2023-05-01', '2023-07-31'));
  assert.deepEqual(window('the 2021-2022 roadmap'), days('2021-01-01', '2022-12-31'));
  assert.deepEqual(window('from 2023-05 to 2023-07'), days('2023-05-01', '2023-07-31'));
});

test('the year carries from the end to the start, a year back when the start would follow the end', () => {
  assert.deepEqual(window('from December to February 2024'), days('2023-12-01', '2024-02-29'));
  assert.deepEqual(window('from December 2023 to February'), days('2023-12-01', '2024-02-29'));
  assert.deepEqual(window('between December 28 and January 3, 2023'), days('2022-12-28', '2023-01-03'));
  // Named backwards, it is still the time between them.
  assert.deepEqual(window('between 2023 and 2021'), days('2021-01-01', '2023-12-31'));
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
  assert.deepEqual(window('what changed between May 2023 and now'), days('2023-05-01', '2024-03-20'));
  assert.deepEqual(window('from December until today'), days('2023-12-01', '2024-03-20'));
  // "today" alone is still the day.
  assert.deepEqual(window('what did I do today'), days('2024-03-20', '2024-03-20'));
});
