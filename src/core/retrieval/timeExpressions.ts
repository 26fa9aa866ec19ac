/**
 * Turns time phrases in a query into an inclusive ISO interval (UTC) or a point to boost
 * around. Calendar phrases ("in May 2023", "yesterday", "last week") become intervals a
 * store can filter on; vague ones ("two weeks ago", "recently") only give a point, because
 * filtering on a guess would drop the memory the user means. Dates without a year resolve
 * to their latest occurrence not after `now`.
 *
 * Read ahead (`timePhrasesOf(text, now, { ahead: true })`, a plan told before the time it names),
 * the phrases that do not say which way they point ("on Friday", "on the 15th", "8 May", "in May")
 * name their first occurrence not before `now` instead.
 */
import { MONTH, monthIndex } from './monthNames.ts';
import { findRanges } from './timeRanges.ts';
import { timeRuleOn } from './timeRuleSwitches.ts';
import { regexMatches } from '../util/regexMatches.ts';

export interface TimeHint {
  after?: string;
  before?: string;
  boostAround?: string;
  matched: string[];
  /**
   * Every phrase of the window is a date without a year ("in May", "on August 15th"): it names a
   * day or month of some year, the latest one not after `now` only by default (yearlessDates.ts).
   */
  yearless?: boolean;
}

/** Half-open span [start, end) in UTC milliseconds. */
interface Span {
  start: number;
  end: number;
}

const DAY = 86_400_000;
export { MONTHS } from './monthNames.ts';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  few: 3,
  'a few': 3,
  couple: 2,
  'a couple': 2,
  'a couple of': 2,
  several: 3,
};
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)?';
/** Bare month names are only dates after a preposition: "may I", "this may" and "march on" are not. */
const MONTH_CONTEXT = '(?<=\\b(?:in|during|of|since|before|after|until|by|from|last|early|late|mid)\\s+)';

/** Null for impossible dates ("31 February", "2023-13-01") instead of rolling them over. */
function daySpan(year: number, month: number, day: number): Span | null {
  const start = Date.UTC(year, month, day);
  if (new Date(start).getUTCMonth() !== ((month % 12) + 12) % 12 || day < 1) return null;
  return { start, end: start + DAY };
}

function monthSpan(year: number, month: number): Span | null {
  if (month < -12 || month > 11) return null;
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

function yearSpan(year: number): Span {
  return { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) };
}

function startOfDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

/** The latest year in which (month, day) is not after now. */
function latestYear(now: Date, month: number, day = 1): number {
  const year = now.getUTCFullYear();
  return Date.UTC(year, month, day) <= now.getTime() ? year : year - 1;
}

/** The earliest year in which the day (or, without a day, the month) has not ended by now. */
function earliestYear(now: Date, month: number, day?: number): number {
  const year = now.getUTCFullYear();
  const ends = day === undefined ? Date.UTC(year, month + 1, 1) : Date.UTC(year, month, day + 1);
  return ends > now.getTime() ? year : year + 1;
}

/** The year of a date without one: the latest not after now, or read ahead the earliest not over. */
function yearOf(now: Date, ahead: boolean, month: number, day?: number): number {
  return ahead ? earliestYear(now, month, day) : latestYear(now, month, day);
}

function parseCount(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : (NUMBER_WORDS[trimmed] ?? 1);
}

/** Shifts back by whole calendar units (forward for a negative amount), so "a month ago" from 31 March is 3 March (JS date rollover). */
function shift(now: Date, unit: string, amount: number): number {
  const date = new Date(now.getTime());
  if (unit.startsWith('day')) date.setUTCDate(date.getUTCDate() - amount);
  else if (unit.startsWith('week')) date.setUTCDate(date.getUTCDate() - 7 * amount);
  else if (unit.startsWith('month')) date.setUTCMonth(date.getUTCMonth() - amount);
  else date.setUTCFullYear(date.getUTCFullYear() - amount);
  return date.getTime();
}

function weekSpan(now: Date, weeksBack: number): Span {
  const today = startOfDay(now.getTime());
  const monday = today - ((now.getUTCDay() + 6) % 7) * DAY - 7 * weeksBack * DAY;
  return { start: monday, end: monday + 7 * DAY };
}

/** The day `days` after today (before it for a negative count). */
function dayFrom(now: Date, days: number): Span {
  const start = startOfDay(now.getTime()) + days * DAY;
  return { start, end: start + DAY };
}

/** The weekday's index (0 for Sunday) from its first three letters ("fri"). */
function weekdayIndex(weekday: string): number {
  return WEEKDAYS.findIndex((day) => day.startsWith(weekday));
}

/** Days from today to the next `weekday` ("fri"), a week for today's own. */
function daysUntil(now: Date, weekday: string): number {
  return (weekdayIndex(weekday) - now.getUTCDay() + 7) % 7 || 7;
}

/** The Saturday and Sunday ending the week (Monday to Sunday) `weeksAhead` from the current one. */
function weekendOf(now: Date, weeksAhead: number): Span {
  const saturday = weekSpan(now, -weeksAhead).start + 5 * DAY;
  return { start: saturday, end: saturday + 2 * DAY };
}

/** A count as people write one ("3", "a", "two", "a few", "a couple of"), as one capturing group. */
export const COUNT_WORDS =
  '(\\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\\s+)?few|(?:a\\s+)?couple(?:\\s+of)?|several)';
/** Weekday names and the usual abbreviations ("Fri", "Tues"), the first three letters captured. */
const WEEKDAY_NAME = '(sun|mon|tue|wed|thu|fri|sat)(?:day|s|sday|nesday|rs|rsday|urday)?';

type Matcher = {
  pattern: RegExp;
  /** `ahead`: the text is read as a plan, so a phrase that does not say which way it points names a time not before now. */
  span: (match: RegExpExecArray, now: Date, ahead: boolean) => Span | null;
  point?: boolean;
  /** A date without a year: resolved against `now` (latestYear). */
  yearless?: boolean;
  /** A time named from `now` ("yesterday", "last week", "two weeks ago"), not a calendar date. */
  relative?: boolean;
  /** Always names a time after `now` ("tomorrow", "next week", "in two weeks"). */
  ahead?: boolean;
  /** Names a time after `now` when the text is read ahead ("on Friday", "8 May"), before it otherwise. */
  eitherWay?: boolean;
};

const MATCHERS: readonly Matcher[] = [
  {
    pattern: /\b(\d{4})-(\d{2})-(\d{2})(?:t[\d:.]+z?)?\b/g,
    span: (m) => daySpan(Number(m[1]), Number(m[2]) - 1, Number(m[3])),
  },
  { pattern: /\b(\d{4})-(\d{2})\b/g, span: (m) => monthSpan(Number(m[1]), Number(m[2]) - 1) },
  {
    pattern: new RegExp(`\\b${ORDINAL}\\s+(?:of\\s+)?${MONTH}(?:,\\s*|\\s+)(\\d{4})\\b`, 'g'),
    span: (m) => daySpan(Number(m[3]), monthIndex(m[2]), Number(m[1])),
  },
  {
    pattern: new RegExp(`\\b${MONTH}\\s+${ORDINAL}(?:,\\s*|\\s+)(\\d{4})\\b`, 'g'),
    span: (m) => daySpan(Number(m[3]), monthIndex(m[1]), Number(m[2])),
  },
  {
    pattern: new RegExp(`\\b${MONTH}(?:,\\s*|\\s+)(\\d{4})\\b`, 'g'),
    span: (m) => monthSpan(Number(m[2]), monthIndex(m[1])),
  },
  {
    pattern: new RegExp(`\\b${ORDINAL}\\s+(?:of\\s+)?${MONTH}\\b`, 'g'),
    span: (m, now, ahead) =>
      daySpan(yearOf(now, ahead, monthIndex(m[2]), Number(m[1])), monthIndex(m[2]), Number(m[1])),
    yearless: true,
    eitherWay: true,
  },
  {
    pattern: new RegExp(`\\b${MONTH}\\s+${ORDINAL}\\b(?![:\\d])`, 'g'),
    span: (m, now, ahead) =>
      daySpan(yearOf(now, ahead, monthIndex(m[1]), Number(m[2])), monthIndex(m[1]), Number(m[2])),
    yearless: true,
    eitherWay: true,
  },
  {
    pattern: new RegExp(`${MONTH_CONTEXT}${MONTH}\\b`, 'g'),
    span: (m, now, ahead) => monthSpan(yearOf(now, ahead, monthIndex(m[1])), monthIndex(m[1])),
    yearless: true,
    eitherWay: true,
  },
  {
    pattern: /(?<=\b(?:in|during|of|since|before|after|until|by|from|year|early|mid|late)[\s-]+)((?:19|20)\d{2})\b/g,
    span: (m) => yearSpan(Number(m[1])),
  },
  {
    relative: true,
    pattern: /\b(?:the\s+)?day\s+before\s+yesterday\b/g,
    span: (_m, now) => dayFrom(now, -2),
  },
  {
    relative: true,
    pattern: /\b(?:yesterday|last\s+night)\b/g,
    span: (_m, now) => dayFrom(now, -1),
  },
  {
    relative: true,
    // The last Saturday and Sunday before the current weekend (on a Saturday or Sunday, the one before).
    pattern: /\b(?:last|this\s+past|past)\s+weekend\b/g,
    span: (_m, now) => weekendOf(now, -1),
  },
  {
    relative: true,
    eitherWay: true,
    // "on the 15th": that day of the latest month in which it is not after now (read ahead, the
    // earliest in which it is not over).
    pattern: /\bon\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)/g,
    span: (m, now, ahead) => {
      const day = Number(m[1]);
      // The nearest month that has the day ("the 31st" in March, before it, is the 31st of January).
      const step = ahead ? -1 : 1;
      const first = ahead ? (now.getUTCDate() <= day ? 0 : 1) : now.getUTCDate() >= day ? 0 : 1;
      for (let back = first; back <= 12; back++) {
        const found = daySpan(now.getUTCFullYear(), now.getUTCMonth() - step * back, day);
        if (found !== null) return found;
      }
      return null;
    },
  },
  {
    relative: true,
    ahead: true,
    pattern: /\b(?:the\s+)?day\s+after\s+tomorrow\b/g,
    span: (_m, now) => dayFrom(now, 2),
  },
  {
    relative: true,
    ahead: true,
    pattern: /\btomorrow\b/g,
    span: (_m, now) => dayFrom(now, 1),
  },
  {
    relative: true,
    ahead: true,
    // "this weekend" is the one ending the current week (Monday to Sunday), "next weekend" the one after.
    pattern: /\b(next|this\s+coming|coming|this)\s+weekend\b/g,
    span: (m, now) => weekendOf(now, m[1] === 'next' ? 1 : 0),
  },
  {
    relative: true,
    ahead: true,
    pattern: /\b(?:next|this\s+coming|coming)\s+(week|month|year)\b/g,
    span: (m, now) => {
      if (m[1] === 'week') return weekSpan(now, -1);
      if (m[1] === 'month') {
        // December's next month is January of the next year (monthSpan takes months of one year).
        const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
        return monthSpan(next.getUTCFullYear(), next.getUTCMonth());
      }
      return yearSpan(now.getUTCFullYear() + 1);
    },
  },
  {
    relative: true,
    ahead: true,
    // The first such day after today, as TimeML resolvers (HeidelTime) read "next Friday".
    pattern: new RegExp(`\\b(?:next|this\\s+coming|coming|this)\\s+${WEEKDAY_NAME}\\b`, 'g'),
    span: (m, now) => dayFrom(now, daysUntil(now, m[1])),
  },
  {
    relative: true,
    pattern: /\btoday\b/g,
    span: (_m, now) => ({ start: startOfDay(now.getTime()), end: startOfDay(now.getTime()) + DAY }),
  },
  {
    relative: true,
    pattern: /\b(this|last|past|previous)\s+(week|month|year)\b/g,
    span: (m, now) => {
      const back = m[1] === 'this' ? 0 : 1;
      if (m[2] === 'week') return weekSpan(now, back);
      if (m[2] === 'month') return monthSpan(now.getUTCFullYear(), now.getUTCMonth() - back);
      return yearSpan(now.getUTCFullYear() - back);
    },
  },
  {
    relative: true,
    eitherWay: true,
    // Full names and the usual abbreviations ("last Fri", "on Tues"); read ahead, "on Friday" is the coming one.
    pattern: new RegExp(`\\b(last|on|this past)\\s+${WEEKDAY_NAME}\\b`, 'g'),
    span: (m, now, ahead) => {
      if (ahead && m[1] === 'on') return dayFrom(now, daysUntil(now, m[2]));
      const back = (now.getUTCDay() - weekdayIndex(m[2]) + 7) % 7 || 7;
      return dayFrom(now, -back);
    },
  },
  {
    relative: true,
    pattern: new RegExp(`\\b${COUNT_WORDS}\\s+(days?|weeks?|months?|years?)\\s+ago\\b`, 'g'),
    span: (m, now) => {
      const point = shift(now, m[2], parseCount(m[1]));
      return { start: point, end: point };
    },
    point: true,
  },
  {
    relative: true,
    ahead: true,
    pattern: new RegExp(
      `\\bin\\s+${COUNT_WORDS}\\s+(days?|weeks?|months?)\\b|\\b${COUNT_WORDS}\\s+(days?|weeks?|months?|years?)\\s+from\\s+now\\b`,
      'g',
    ),
    span: (m, now) => {
      const point = shift(now, m[2] ?? m[4], -parseCount(m[1] ?? m[3]));
      return { start: point, end: point };
    },
    point: true,
  },
  {
    relative: true,
    pattern: /\b(recently|lately|the other day)\b/g,
    span: (_m, now) => ({ start: now.getTime(), end: now.getTime() }),
    point: true,
  },
];

/** "before X" keeps what ends before X starts; "after X" what starts after X ends; "since"/"until" include X. */
function bound(modifier: string | undefined, span: Span): Span {
  if (modifier === 'before' || modifier === 'prior to') return { start: -Infinity, end: span.start };
  if (modifier === 'until' || modifier === 'by') return { start: -Infinity, end: span.end };
  if (modifier === 'after') return { start: span.end, end: Infinity };
  if (modifier === 'since' || modifier === 'from') return { start: span.start, end: Infinity };
  return span;
}

/**
 * A part of a period named before it: "the first half of", "early", "mid-", "the end of". Early,
 * mid and late are thirds: "early May" is 1-10 May, not the first half.
 */
const PERIOD_PART =
  /\b(?:(?:the\s+)?(first|second|1st|2nd|latter)\s+half\s+of|(early|mid|late)-?|(?:the\s+)?(beginning|start|middle|end)\s+of)\s*(?:the\s+)?$/;
const PART_SHARES: Record<string, [number, number]> = {
  first: [0, 1 / 2],
  '1st': [0, 1 / 2],
  second: [1 / 2, 1],
  '2nd': [1 / 2, 1],
  latter: [1 / 2, 1],
  early: [0, 1 / 3],
  beginning: [0, 1 / 3],
  start: [0, 1 / 3],
  mid: [1 / 3, 2 / 3],
  middle: [1 / 3, 2 / 3],
  late: [2 / 3, 1],
  end: [2 / 3, 1],
};

/**
 * The part of a span, in whole days. After a bound ("before the end of 2024", "since the
 * beginning of May") the end or beginning is the period's last or first day, not its last third.
 */
function partOf(part: string, span: Span, bounded: boolean): Span {
  if (bounded && part === 'end') return { start: span.end - DAY, end: span.end };
  if (bounded && (part === 'beginning' || part === 'start')) return { start: span.start, end: span.start + DAY };
  const [from, to] = PART_SHARES[part];
  const start = new Date(span.start);
  const end = new Date(span.end);
  const months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
  // A year splits at month starts ("the second half of 2025" is July to December), a month or a week in days.
  if (months >= 2 && start.getUTCDate() === 1 && end.getUTCDate() === 1) {
    const at = (share: number): number =>
      Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + Math.round(months * share), 1);
    return { start: at(from), end: at(to) };
  }
  const days = Math.round((span.end - span.start) / DAY);
  return { start: span.start + Math.round(days * from) * DAY, end: span.start + Math.round(days * to) * DAY };
}

/** "the day / week / fortnight / month / year before or after" a date, right before it. */
const ADJACENT_PERIOD = /\bthe\s+(day|week|fortnight|month|year)\s+(before|after)\s+(?:the\s+)?$/;

/** The period of `unit` that ends where `span` starts (before) or starts where it ends (after). */
function adjacentPeriod(unit: string, side: string, span: Span): Span {
  const days: Record<string, number> = { day: 1, week: 7, fortnight: 14 };
  if (unit in days) {
    const length = days[unit] * DAY;
    return side === 'before'
      ? { start: span.start - length, end: span.start }
      : { start: span.end, end: span.end + length };
  }
  const months = unit === 'month' ? 1 : 12;
  // The same day of the month `by` months away, or that month's last day: the month before
  // 31 March starts on 28 (or 29) February, not on 3 March.
  const at = (ms: number, by: number): number => {
    const date = new Date(ms);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() + by;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)) + (ms - startOfDay(ms));
  };
  return side === 'before'
    ? { start: at(span.start, -months), end: span.start }
    : // Up to the same day a month (year) after the span's last day: after 30 January, 29 February.
      { start: span.end, end: at(span.end - DAY, months) + DAY };
}

/** One time phrase of a text and the time it names (half-open, UTC ms); a vague one names a point (start = end). */
export interface TimePhrase {
  phrase: string;
  start: number;
  end: number;
  /** A vague time ("two weeks ago", "recently"): a point to boost around, not a window. */
  point: boolean;
  /** A date without a year. */
  yearless: boolean;
  /** Named from `now` ("last week", "yesterday"), not a calendar date. */
  relative: boolean;
  /** Names a time after `now`: "tomorrow", "next week", "in two weeks", and read ahead "on Friday" or "8 May". */
  ahead: boolean;
  /** The calendar date the phrase names before its part or bound ("May 2023" of "before early May 2023"). */
  date: { start: number; end: number };
}

/**
 * Every time phrase of `text`, each resolved on its own against `now`: ranges first, then the
 * single dates, each with the part ("early", "the first half of") and bound ("before", "since") it
 * is written with. Dates that cannot exist ("31 February") are left out. With `ahead`, the text is
 * read as told before what it names (a plan): a phrase that does not say which way it points ("on
 * Friday", "8 May") names its first occurrence not before `now`, and is marked `ahead`.
 */
export function timePhrasesOf(text: string, now: Date, reading: { ahead?: boolean } = {}): TimePhrase[] {
  const readAhead = reading.ahead === true;
  const source = text;
  let lower = text.normalize('NFKC').toLowerCase();
  const phrases: TimePhrase[] = [];
  // A range is one window from its first date to its last, read before the single dates it holds.
  for (const range of timeRuleOn('timeRanges') ? findRanges(lower, now) : []) {
    phrases.push({
      phrase: source.slice(range.index, range.index + range.length).trim(),
      start: range.span.start,
      end: range.span.end,
      point: false,
      yearless: range.yearless,
      relative: false,
      ahead: false,
      date: range.span,
    });
    lower = lower.slice(0, range.index) + ' '.repeat(range.length) + lower.slice(range.index + range.length);
  }
  for (const { pattern, span, point, yearless, relative, ahead, eitherWay } of MATCHERS) {
    let matchedAny = false;
    // Not matchAll: it copies each of these patterns on every call (regexMatches.ts), for every query.
    for (const match of regexMatches(pattern, lower)) {
      matchedAny = true;
      const whole = span(match, now, readAhead);
      // "last Fri" says which way it points even when read ahead; "on Fri" does not.
      const pointsAhead =
        ahead === true || (readAhead && eitherWay === true && whole !== null && whole.end > now.getTime());
      if (whole === null) continue;
      // Only a period longer than a day has parts worth naming ("the end of May", not "of today").
      const part = point || whole.end - whole.start <= DAY ? null : PERIOD_PART.exec(lower.slice(0, match.index));
      const partFrom = part ? part.index : match.index;
      const adjacent = point ? null : ADJACENT_PERIOD.exec(lower.slice(0, partFrom));
      const from = adjacent ? adjacent.index : partFrom;
      const phrase = source.slice(from, match.index + match[0].length).trim();
      if (point) {
        phrases.push({
          phrase,
          start: whole.start,
          end: whole.start,
          point: true,
          yearless: false,
          relative: true,
          ahead: pointsAhead,
          date: whole,
        });
        continue;
      }
      const modifier = adjacent
        ? undefined
        : /\b(before|prior to|until|by|after|since|from)\s+(?:the\s+)?$/.exec(lower.slice(0, from))?.[1];
      const found = part ? partOf(part[1] ?? part[2] ?? part[3], whole, modifier !== undefined) : whole;
      const bounded = adjacent ? adjacentPeriod(adjacent[1], adjacent[2], found) : bound(modifier, found);
      phrases.push({
        phrase,
        start: bounded.start,
        end: bounded.end,
        point: false,
        yearless: yearless === true,
        relative: relative === true,
        ahead: pointsAhead,
        date: whole,
      });
    }
    // Blank what matched so a shorter pattern ("May 2023" then "2023") cannot match it again; a
    // pattern that matched nothing has nothing to blank (most, for most queries).
    if (matchedAny) lower = lower.replace(pattern, (whole) => ' '.repeat(whole.length));
  }
  return phrases;
}

/**
 * A question that names a calendar date and a time relative to the present ("what did Joanna finish
 * last Friday, on 23 January 2022?", "what did she plan for next week, on 6 November 2023") tells
 * the relative time from that date, not from today: the relative phrases are read again as of the
 * start of the latest such date, and the window runs from the earliest time they and the date name
 * to the latest (what happened then, what was planned from it, and when it was told). A date named
 * without a year ("as mentioned on November 6") has no year to read from until the memories place
 * it (yearlessDates.ts), so there the relative phrases are left out and the date alone is the
 * window, never the empty meeting of today's "last week" with a November. Null when the query has
 * no such pair.
 */
function anchoredToDate(query: string, phrases: readonly TimePhrase[]): TimePhrase[] | null {
  if (!phrases.some((phrase) => phrase.relative)) return null;
  const named = phrases.filter((phrase) => !phrase.relative && Number.isFinite(phrase.date.start));
  const dates = named.filter((phrase) => !phrase.yearless);
  if (dates.length === 0) return named.length > 0 ? phrases.filter((phrase) => !phrase.relative) : null;
  const anchor = dates.reduce((latest, phrase) => (phrase.date.start > latest.date.start ? phrase : latest));
  const relative = timePhrasesOf(query, new Date(anchor.date.start)).filter((phrase) => phrase.relative);
  const spans = relative.filter((phrase) => !phrase.point);
  const start = Math.min(anchor.date.start, ...spans.map((phrase) => phrase.start));
  const end = Math.max(anchor.date.end, ...spans.map((phrase) => phrase.end));
  return [
    { ...anchor, phrase: anchor.phrase, start, end },
    ...relative.map((phrase) => (phrase.point ? phrase : { ...phrase, start, end })),
  ];
}

/** The query's time phrases as one window (their intersection) and the first vague point. */
export function parseTimeExpressions(query: string, now: Date): TimeHint {
  let start = -Infinity;
  let end = Infinity;
  let boost: number | undefined;
  let windowParts = 0;
  let yearlessParts = 0;
  const phrases = timePhrasesOf(query, now);
  const windowPhrases = anchoredToDate(query, phrases) ?? phrases;
  // Every time phrase is kept out of the topic words, also one the window leaves out.
  const matched = [...new Set([...windowPhrases, ...phrases].map((phrase) => phrase.phrase))];
  for (const phrase of windowPhrases) {
    if (phrase.point) {
      boost ??= phrase.start;
      continue;
    }
    windowParts += 1;
    if (phrase.yearless) yearlessParts += 1;
    start = Math.max(start, phrase.start);
    end = Math.min(end, phrase.end);
  }
  const hint: TimeHint = { matched };
  if (Number.isFinite(start)) hint.after = new Date(start).toISOString();
  if (Number.isFinite(end)) hint.before = new Date(Math.max(end - 1, start)).toISOString();
  if (boost !== undefined) hint.boostAround = new Date(boost).toISOString();
  if (windowParts > 0 && yearlessParts === windowParts) hint.yearless = true;
  return hint;
}
