import { after, before } from 'node:test';
import type { RecallInput, RecallOutput } from '../../src/core/api/longTermApi.ts';
import type { Clock } from '../../src/core/ports/clock.ts';
import { createTestCore, labelsOf, storeEvents, type TestCore } from './testCore.ts';

type Events = ReadonlyArray<readonly [label: string, content: string, eventTime: string]>;

/** What a time rule's test asks its fixture: recall without logging access, and the labels it returned. */
export interface TimedEvents {
  /** The stored memories' ids by the labels their events were given (filled before the first test). */
  readonly ids: Record<string, string>;
  recall(query: string, extra?: Omit<RecallInput, 'user_id' | 'query'>): Promise<RecallOutput>;
  /** The labels of the memories a recall returned, in order. */
  returned(result: RecallOutput): string[];
}

/**
 * The fixture the time rules' tests share: one user's events stored with their own event times in a
 * core whose clock reads `now`. With `ticking`, a second passes per reading, so memories stored one
 * after another have distinct creation times (a full-text tie goes to the last stored). Registers its
 * before/after hooks in the describe block that calls it.
 */
export function timedEvents(options: {
  user: string;
  now: string;
  ticking?: boolean;
  events: Events | (() => Events);
}): TimedEvents {
  const start = Date.parse(options.now);
  let tick = 0;
  const clock: Clock = { now: () => new Date(options.ticking ? start + 1000 * tick++ : start) };
  let test: TestCore | undefined;
  const ids: Record<string, string> = {};
  before(async () => {
    test = await createTestCore({ clock });
    const events = typeof options.events === 'function' ? options.events() : options.events;
    Object.assign(ids, await storeEvents(test, options.user, events));
  });
  after(() => test?.cleanup());
  return {
    ids,
    recall: (query, extra = {}) => {
      if (test === undefined) throw new Error('timedEvents: recall before the fixture was set up');
      return test.core.recall({ ...extra, user_id: options.user, query }, { logAccess: false });
    },
    returned: (result) => labelsOf(ids, result),
  };
}
