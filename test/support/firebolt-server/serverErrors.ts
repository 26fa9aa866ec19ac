/**
 * An error the test server reports the way Firebolt does: an HTTP status and a structured
 * `{"errors":[…]}` body (firebolt.md §2.4).
 */
export class FireboltServerError extends Error {
  readonly status: number;
  readonly errorName: string;

  constructor(status: number, errorName: string, description: string) {
    super(description);
    this.status = status;
    this.errorName = errorName;
  }

  toBody(): { errors: Array<Record<string, unknown>> } {
    return {
      errors: [
        {
          code: this.errorName.toUpperCase(),
          name: this.errorName,
          severity: 'ERROR',
          source: 'Firebolt test server',
          description: this.message,
        },
      ],
    };
  }
}
