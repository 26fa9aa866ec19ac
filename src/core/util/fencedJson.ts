/**
 * The JSON value in a chat model's answer. Tolerates only a surrounding ``` or ```json fence,
 * which chat models add even when told not to; anything else that is not JSON is refused through
 * `invalid` (each caller's own typed error), with the start of the answer quoted.
 */
export function parseFencedJson(text: string, invalid: (problem: string, cause: unknown) => Error): unknown {
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i, '$1')
    .trim();
  try {
    return JSON.parse(unfenced);
  } catch (cause) {
    throw invalid(`answer is not JSON: ${JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text)}`, cause);
  }
}
