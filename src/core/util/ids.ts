/** Prefixed random ids: the prefix tells a reader of a log which table an id belongs to. */
export function newId(prefix: 'mem' | 'wmi' | 'sess' | 'acc'): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}

/**
 * An access-log id that sorts by the time it was made: 12 hex digits of the epoch milliseconds,
 * then 20 random hex digits (80 bits, so ids of the same millisecond in any process stay apart),
 * the same `acc_` + 32 hex digits as a random id. Why: the log's primary-key index is written by
 * every recall (fifty rows for a LoCoMo question); random keys land on a different leaf page each,
 * and every page a commit touches is written to the WAL again. Keys that grow land on the last
 * leaves: measured on a LoCoMo conversation, a flush of 150 entries wrote 184 → 140 WAL pages.
 * The random digits come from randomUUID (Node keeps a pool of random bytes for it; asking
 * getRandomValues for 10 bytes per id cost 10 µs), without its fixed version and variant digits.
 */
export function newTimeOrderedId(prefix: 'acc'): string {
  const time = Math.max(0, Date.now()).toString(16).padStart(12, '0').slice(-12);
  // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: 8 + 4 + 3 + 12 random digits, 20 of them taken.
  const uuid = globalThis.crypto.randomUUID();
  return `${prefix}_${time}${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(15, 18)}${uuid.slice(24, 29)}`;
}
