import { FireboltServerError } from './serverErrors.ts';

/** Integer literals beyond 2^53 stay exact: the engine reads parameter values at full precision. */
function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (
      typeof value === 'number' &&
      context?.source !== undefined &&
      /^-?\d+$/u.test(context.source) &&
      !Number.isSafeInteger(value)
    ) {
      return BigInt(context.source);
    }
    return value;
  });
}

/**
 * `query_parameters` is JSON: an array of {name:"$n", value} or a single such object.
 * Returns SQLite bind values indexed by n-1; arrays and objects travel as JSON text,
 * booleans as 1/0 (SQLite has no boolean type).
 */
export function parseQueryParameters(raw: string | undefined): unknown[] {
  return parseRawParameters(raw).map(toBindValue);
}

/** The JSON values as sent (arrays stay arrays, null stays null), indexed by n-1. */
export function parseRawParameters(raw: string | undefined): unknown[] {
  if (raw === undefined || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = parseExact(raw);
  } catch {
    throw new FireboltServerError(400, 'InvalidSetting', 'query_parameters is not valid JSON');
  }
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  const values: unknown[] = [];
  for (const entry of entries) {
    const { name, value } = (entry ?? {}) as { name?: unknown; value?: unknown };
    const match = typeof name === 'string' ? /^\$(\d+)$/u.exec(name) : null;
    if (!match || Number(match[1]) < 1)
      throw new FireboltServerError(
        400,
        'InvalidSetting',
        `query parameter name ${JSON.stringify(name)} is not $1, $2, …`,
      );
    values[Number(match[1]) - 1] = value ?? null;
  }
  for (let i = 0; i < values.length; i++) if (!(i in values)) values[i] = null;
  return values;
}

function toBindValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'object')
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? Number(inner) : inner));
  return value;
}
