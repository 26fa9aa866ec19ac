/**
 * Whether a memory's text says when something happened or will happen: a date ("on 8 May 2023",
 * "in March", "since 2019"), a day or period relative to when it was said ("yesterday", "last Fri",
 * "this weekend", "next month", "two weeks ago", "on the 15th") or how long ("for 3 years", "in two
 * weeks"). These are the kinds of temporal expression annotation schemes such as TimeML tag (dates,
 * relative dates, durations), written with the same closed classes the query's time phrases use
 * (timeExpressions.ts): month and weekday names with their abbreviations, calendar units, seasons,
 * counts and the deictic words (this, next, last, past). No topic word is in it. One pattern, so a
 * memory is tested once (timeAnswerWeighting.ts tests the best candidates of a question asking when).
 */
import { MONTH } from './monthNames.ts';
import { COUNT_WORDS } from './timeExpressions.ts';
import { timeRuleOn, type TimeRule } from './timeRuleSwitches.ts';

/** The month name as a group that captures nothing. */
const ANY_MONTH = MONTH.replace(/^\(/, '(?:');
const COUNT = COUNT_WORDS.replace(/^\(/, '(?:');
const UNIT = '(?:days?|nights?|weeks?|weekends?|fortnights?|months?|years?|decades?)';
const WEEKDAY = '(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?';
const SEASON = '(?:summer|winter|spring|fall|autumn)';
const PART_OF_DAY = '(?:morning|afternoon|evening|night)';
const DAY_NUMBER = '\\d{1,2}(?:st|nd|rd|th)?';
const YEAR = '(?:19|20)\\d{2}';

/** The forms by family, so an evaluation can measure each (timeRuleSwitches.ts). */
const FAMILIES: ReadonlyArray<[TimeRule, readonly string[]]> = [
  [
    'timeMentions.relative',
    [
      // Days named relative to the telling.
      '(?:yesterday|today|tonight|tomorrow|the\\s+other\\s+day|recently|lately)',
      // A period named relative to the telling: "last weekend", "this past Friday", "next summer".
      `(?:this|next|last|past|coming|previous|this\\s+past)\\s+(?:${UNIT}|${WEEKDAY}|${SEASON}|${PART_OF_DAY})`,
      // "on Monday", "on the 15th".
      `on\\s+(?:${WEEKDAY}|the\\s+${DAY_NUMBER})`,
    ],
  ],
  [
    'timeMentions.duration',
    [
      // A count of units from the telling, or how long: "two weeks ago", "3 years now", "for four months".
      `${COUNT}\\s+${UNIT}\\s+(?:ago|later|earlier|before|after|back|now|from\\s+now)`,
      `(?:for|in|within|about|around|over|almost|nearly)\\s+(?:the\\s+)?(?:last\\s+|past\\s+|next\\s+)?${COUNT}\\s+${UNIT}`,
    ],
  ],
  [
    'timeMentions.calendar',
    [
      // Calendar dates: "8 May", "May 8th", "May 2023", ISO dates, a month or year after a preposition.
      `${DAY_NUMBER}\\s+(?:of\\s+)?${ANY_MONTH}`,
      `${ANY_MONTH}\\s+(?:${DAY_NUMBER}|${YEAR})`,
      `${YEAR}-(?:0[1-9]|1[0-2])(?:-\\d{2})?`,
      // The words before a month or a year that the query's phrases read (timeExpressions.ts).
      `(?:in|during|of|since|before|after|until|by|from|last|early|mid|late|year)[\\s-]+(?:${ANY_MONTH}|${YEAR})`,
    ],
  ],
];

/** A month counts with a day, a year or a word before it: "May I" or "march on" are no dates, "in May" is. */
function mentionPattern(families: ReadonlyArray<[TimeRule, readonly string[]]>): RegExp {
  return new RegExp(`\\b(?:${families.flatMap(([, forms]) => forms).join('|')})\\b`);
}
const MENTION = mentionPattern(FAMILIES);

/** True when `text` says when something happened, will happen or for how long (see the module comment). */
export function mentionsTime(text: string): boolean {
  const families = FAMILIES.filter(([rule]) => timeRuleOn(rule));
  const pattern = families.length === FAMILIES.length ? MENTION : mentionPattern(families);
  return families.length > 0 && pattern.test(text.normalize('NFKC').toLowerCase());
}
