/**
 * Skip policy for suites that need something outside the repository (chromium, code-server,
 * root and mount(8)). On a developer machine a missing prerequisite skips the suite with its
 * reason, and `npm test` lists it by name at the end. CI sets FML_REQUIRE_ALL_SUITES=1 because
 * it installs those prerequisites: there a missing one is a failure, never a silent skip.
 */
export const REQUIRE_ALL_SUITES = process.env.FML_REQUIRE_ALL_SUITES === '1';

export class MissingPrerequisiteError extends Error {
  readonly code = 'MISSING_PREREQUISITE';
}

/** The `skip` option for a suite: false when `missing` is null, else its reason (or a throw under CI). */
export function skipUnlessAvailable(suite: string, missing: string | null): string | false {
  if (missing === null) return false;
  if (REQUIRE_ALL_SUITES)
    throw new MissingPrerequisiteError(`${suite} must run (FML_REQUIRE_ALL_SUITES=1) but cannot: ${missing}`);
  return missing;
}
