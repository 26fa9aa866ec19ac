import { encodeQueryParameters } from './queryParameters.ts';
import type { QueryParam } from './queryParameters.ts';

/**
 * Longest request target (path and query string) this client sends, in bytes. Firebolt
 * documents no limit, but parameters travel in the URL and gateways in front of an engine
 * commonly refuse request lines over 8–16 KB (nginx's default buffer is 8 KB); percent-encoded
 * non-ASCII text is 3–9× its character count. Above this, parameters move into the body as
 * literals (inlineParameters.ts).
 */
export const MAX_REQUEST_TARGET_BYTES = 8000;

/** Room kept for the path and the session settings (database, output_format, transaction ids, vector settings). */
const SESSION_ROOM_BYTES = 1200;

/** What `query_parameters` adds to the query string for these values, percent-encoded. */
export function encodedParameterBytes(values: readonly QueryParam[]): number {
  return new URLSearchParams({ query_parameters: encodeQueryParameters(values) }).toString().length;
}

/**
 * Splits records into batches whose parameters fit the request target, at most `maxRows` per
 * batch. A single record too large on its own is a batch by itself and goes through the
 * literal path.
 */
export function batchesByEncodedSize<R>(
  records: readonly R[],
  values: (record: R) => readonly QueryParam[],
  maxRows: number,
): R[][] {
  const budget = MAX_REQUEST_TARGET_BYTES - SESSION_ROOM_BYTES;
  const batches: R[][] = [];
  let current: R[] = [];
  let used = 0;
  for (const record of records) {
    // Each value costs its own encoding; the name and braces of the entry are counted in it.
    const size = encodedParameterBytes(values(record));
    if (current.length > 0 && (used + size > budget || current.length >= maxRows)) {
      batches.push(current);
      current = [];
      used = 0;
    }
    current.push(record);
    used += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
