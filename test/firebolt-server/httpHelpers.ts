/** Raw protocol calls for the server tests: no client library between the test and the wire. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json(): any;
}

export async function post(
  baseUrl: string,
  sql: string,
  settings: Record<string, string> = {},
  params?: unknown[],
  path = '/',
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  for (const [key, value] of Object.entries({ output_format: 'JSON_Compact', ...settings }))
    url.searchParams.set(key, value);
  if (params)
    url.searchParams.set(
      'query_parameters',
      JSON.stringify(params.map((value, index) => ({ name: `$${index + 1}`, value }))),
    );
  const response = await fetch(url, {
    method: 'POST',
    body: sql,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}
