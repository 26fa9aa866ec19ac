import { fireboltDetails } from '../firebolt/fireboltErrors.ts';

/**
 * True when a remote failure means "Firebolt cannot be reached or cannot take work now"
 * (refused or dropped connection, timeout, 429, 5xx) after the client's own retries: the
 * write stays in the outbox for later. Anything else (a rejected statement, bad credentials,
 * a missing memory) is an answer, not an outage.
 */
export function isUnreachable(error: unknown): boolean {
  const details = fireboltDetails(error);
  return details !== undefined && details.retryable;
}
