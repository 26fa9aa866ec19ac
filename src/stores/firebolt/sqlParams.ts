import type { QueryParam } from './queryParameters.ts';

/** Collects `$n` parameters while a statement is assembled, so values never enter SQL text. */
export class SqlParams {
  readonly values: QueryParam[] = [];

  add(value: QueryParam): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** `$a, $b, …` for an IN list; callers handle the empty list. */
  list(values: readonly QueryParam[]): string {
    return values.map((value) => this.add(value)).join(', ');
  }
}
