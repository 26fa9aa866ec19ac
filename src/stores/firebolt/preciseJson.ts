/**
 * JSON.parse that keeps integers beyond 2^53 exact as bigint (the engine prints BIGINT
 * values as bare numbers). Doubles need nothing special: the engine prints at most 17
 * significant digits, which JSON.parse reads back to the same double.
 */
export function parseJsonPrecise(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (
      typeof value === 'number' &&
      !Number.isSafeInteger(value) &&
      context?.source !== undefined &&
      /^-?\d+$/u.test(context.source)
    ) {
      return BigInt(context.source);
    }
    return value;
  });
}
