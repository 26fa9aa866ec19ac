/** English month names, as the time phrases of a query spell them (timeExpressions.ts, timeRanges.ts). */

/** January first: also how the LoCoMo bench reads its session dates. */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A month name or its usual abbreviation, lower case, as one capturing group. */
export const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** The month's index (0 for January) from its name or abbreviation. */
export function monthIndex(name: string): number {
  return MONTHS.findIndex((month) => month.startsWith(name.slice(0, 3)));
}
