/** A value sent server-side as `$n` through `query_parameters`. */
export type QueryParam = string | number | bigint | boolean | null | readonly QueryParam[];

/**
 * `[{"name":"$1","value":…},…]`, written by hand so bigint values keep every digit
 * (JSON.stringify cannot serialise them).
 */
export function encodeQueryParameters(params: readonly QueryParam[]): string {
  return `[${params.map((value, index) => `{"name":"$${index + 1}","value":${encodeValue(value)}}`).join(',')}]`;
}

function encodeValue(value: QueryParam): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(encodeValue).join(',')}]`;
  if (typeof value === 'number' && !Number.isFinite(value))
    return JSON.stringify(String(value).toLowerCase().replace('infinity', 'inf'));
  return JSON.stringify(value);
}
