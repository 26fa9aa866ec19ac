/**
 * Date ranges in a query: "between March 3 and March 10", "from May to July 2023", "May 3–7",
 * "3-7 May", "2021 to 2023". A range is one window from the start of its first date to the end of
 * its last, not two dates intersected (which would be empty). English writes a range's shared parts
 * once, so they are carried across: the month from whichever side names it ("May 3–7", "3–7 May"),
 * the year from the end to the start ("August 11 to 15, 2023") or from the start to the end
 * ("December 2023 to February"), a year back or on when the start would otherwise follow the end.
 * A range with no year at all is yearless like a single date (yearlessDates.ts): its start is the
 * latest occurrence not after `now`. Endpoints must be dates: "between the API and the UI" and
 * "from 3 to 5 retries" are no range, nor is a pair of bare day numbers with no month on either side.
 */
import { MONTH, monthIndex } from './monthNames.ts';

/** Half-open span [start, end) in UTC milliseconds. */
export interface RangeSpan {
  start: number;
  end: number;
}

export interface FoundRange {
  /** Where the whole phrase ("between … and …") starts in the text searched, and its length. */
  index: number;
  length: number;
  span: RangeSpan;
  /** Neither endpoint named a year. */
  yearless: boolean;
}

/** The parts a range endpoint names; any may be missing and be carried from the other side. */
interface Endpoint {
  year?: number;
  month?: number;
  day?: number;
}

/** The month name as a group that captures nothing, so the endpoints are groups 1 and 2. */
const ANY_MONTH = MONTH.replace(/^\(/, '(?:');
const DAY_NUMBER = '\\d{1,2}(?:st|nd|rd|th)?';
const YEAR = '(?:19|20)\\d{2}';
/**
 * One endpoint; alternatives longest first so "May 3, 2023" is not read as "May". An ISO month is
 * never the start of an ISO date ("2023-05" of "2023-05-08" is no range to day 8).
 */
const ENDPOINT =
  `(?:the\\s+)?(?:\\d{4}-\\d{2}-\\d{2}|\\d{4}-\\d{2}(?!-\\d)|` +
  `${ANY_MONTH}\\s+${DAY_NUMBER}(?:,?\\s+${YEAR})?|` +
  `${DAY_NUMBER}(?:\\s+(?:of\\s+)?${ANY_MONTH})?(?:,?\\s+${YEAR})?|` +
  `${ANY_MONTH}(?:,?\\s+${YEAR})?|${YEAR})`;
/** The end of a range may be the present: "from May 2023 until now", "between March and today". */
const END = `(?:${ENDPOINT}|now|today)`;
const WORD_TO = '\\s+(?:to|until|till|through|thru)\\s+';
const DASH = '\\s*[-\u2013\u2014]\\s*';
/** Not inside a word, a number or an ISO date, on either side. */
const OPEN = '(?<![\\w\\-\u2013\u2014:])';
const CLOSE = '(?![\\w\\-\u2013\u2014:])';

const RANGE_PATTERNS: readonly RegExp[] = [
  new RegExp(`${OPEN}between\\s+(${ENDPOINT})\\s+and\\s+(${END})${CLOSE}`, 'g'),
  new RegExp(`${OPEN}from\\s+(${ENDPOINT})(?:${WORD_TO}|${DASH})(${END})${CLOSE}`, 'g'),
  new RegExp(`${OPEN}(${ENDPOINT})(?:${WORD_TO}|${DASH})(${END})${CLOSE}`, 'g'),
];

/**
 * What every range has, tested before the range patterns, which try every endpoint form at every
 * position of the query: a date or year (a digit or a month's name, written anywhere) and what
 * joins the endpoints ("between … and", a "to" word or a dash). Most queries have neither.
 */
const MAY_HOLD_RANGE: readonly RegExp[] = [
  new RegExp(`\\d|${ANY_MONTH}`),
  /between|\s(?:to|until|till|through|thru)\s|[-\u2013\u2014]/,
];

const DAY = 86_400_000;

/** The parts one endpoint names, read from its text (lower case). */
function endpointOf(text: string, now: Date): Endpoint {
  const bare = text.replace(/^the\s+/, '').trim();
  if (bare === 'now' || bare === 'today')
    return { year: now.getUTCFullYear(), month: now.getUTCMonth(), day: now.getUTCDate() };
  const iso = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(bare);
  if (iso) return { year: Number(iso[1]), month: Number(iso[2]) - 1, day: iso[3] ? Number(iso[3]) : undefined };
  const year = new RegExp(`(?:^|[\\s,])(${YEAR})$`).exec(bare);
  const rest = year ? bare.slice(0, year.index) : bare;
  const month = new RegExp(`\\b${MONTH}\\b`).exec(rest);
  const day = /\d{1,2}/.exec(rest);
  return {
    year: year ? Number(year[1]) : undefined,
    month: month ? monthIndex(month[1]) : undefined,
    day: day ? Number(day[0]) : undefined,
  };
}

/** The endpoint's span once its year and month are known; null for impossible dates ("February 30"). */
function spanOf(year: number, month: number | undefined, day: number | undefined): RangeSpan | null {
  if (month === undefined) return { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) };
  if (month < 0 || month > 11) return null;
  if (day === undefined) return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
  const start = Date.UTC(year, month, day);
  if (day < 1 || new Date(start).getUTCMonth() !== month) return null;
  return { start, end: start + DAY };
}

/** Month and day as one comparable number, for "does the end come before the start within a year". */
function dayOfYear(endpoint: Endpoint): number {
  return (endpoint.month ?? 0) * 32 + (endpoint.day ?? 1);
}

/** The latest year in which (month, day) is not after now. */
function latestYear(now: Date, month: number, day: number): number {
  const year = now.getUTCFullYear();
  return Date.UTC(year, month, day) <= now.getTime() ? year : year - 1;
}

/** The range's span, with the parts English leaves out carried across; null when it names no dates. */
export function resolveRange(
  startText: string,
  endText: string,
  now: Date,
): { span: RangeSpan; yearless: boolean } | null {
  const from = endpointOf(startText, now);
  const to = endpointOf(endText, now);
  // A year alone pairs only with another endpoint that names its year ("from 2021 to March 2023").
  const yearOnly = (point: Endpoint): boolean => point.month === undefined && point.day === undefined;
  if ((yearOnly(from) && to.year === undefined) || (yearOnly(to) && from.year === undefined)) return null;
  // A day number without a month takes the other side's month ("May 3–7", "3–7 May"); two bare numbers are no dates.
  if (from.month === undefined && from.day !== undefined) from.month = to.month;
  if (to.month === undefined && to.day !== undefined) to.month = from.month;
  if (from.month === undefined && from.year === undefined) return null;
  if (to.month === undefined && to.year === undefined) return null;
  const yearless = from.year === undefined && to.year === undefined;
  if (yearless) from.year = latestYear(now, from.month ?? 0, from.day ?? 1);
  // The end's year carries back, a year earlier when the start would follow the end ("December to February 2024").
  if (from.year === undefined && to.year !== undefined)
    from.year = dayOfYear(from) > dayOfYear(to) ? to.year - 1 : to.year;
  if (to.year === undefined && from.year !== undefined)
    to.year = dayOfYear(to) < dayOfYear(from) ? from.year + 1 : from.year;
  if (from.year === undefined || to.year === undefined) return null;
  const first = spanOf(from.year, from.month, from.day);
  const last = spanOf(to.year, to.month, to.day);
  if (first === null || last === null) return null;
  // Named backwards ("between 2023 and 2021"), it is still the time between them.
  return {
    span: { start: Math.min(first.start, last.start), end: Math.max(first.end, last.end) },
    yearless,
  };
}

/** Every range in `text` (lower case), the introduced forms ("between", "from") before the bare ones. */
export function findRanges(text: string, now: Date): FoundRange[] {
  const found: FoundRange[] = [];
  if (!MAY_HOLD_RANGE.every((pattern) => pattern.test(text))) return found;
  let searched = text;
  for (const pattern of RANGE_PATTERNS) {
    for (const match of searched.matchAll(pattern)) {
      const resolved = resolveRange(match[1], match[2], now);
      if (resolved === null) continue;
      found.push({ index: match.index, length: match[0].length, ...resolved });
    }
    // A range found is not found again as the bare form of its own endpoints.
    for (const range of found)
      searched = searched.slice(0, range.index) + ' '.repeat(range.length) + searched.slice(range.index + range.length);
  }
  return found;
}
