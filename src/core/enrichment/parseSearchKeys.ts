import { MemoryError } from '../domain/errors.ts';
import { searchKeyIdentity } from '../text/searchKeys.ts';
import { parseFencedJson } from '../util/fencedJson.ts';
import { MAX_MODEL_KEYS } from './enrichmentPrompt.ts';

const MAX_KEY_CHARS = 80;

/**
 * Validates a model's keys. A malformed answer is refused whole (PROVIDER_ERROR, retried);
 * within a well-formed one, keys that are empty or too long are dropped and the list is cut to
 * MAX_MODEL_KEYS, because one verbose key does not make the others wrong.
 */
export function parseSearchKeys(text: string, source: string): string[] {
  const parsed = parseFencedJson(text, (problem, cause) => invalid(source, problem, cause));
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Array.isArray((parsed as { keys?: unknown }).keys)
  ) {
    throw invalid(source, 'answer must be an object with a "keys" array');
  }
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const raw of (parsed as { keys: unknown[] }).keys) {
    if (typeof raw !== 'string') throw invalid(source, 'every key must be a string');
    const key = raw.trim().replace(/\s+/g, ' ');
    const identity = searchKeyIdentity(key);
    if (key === '' || key.length > MAX_KEY_CHARS || seen.has(identity)) continue;
    seen.add(identity);
    keys.push(key);
    if (keys.length === MAX_MODEL_KEYS) break;
  }
  return keys;
}

function invalid(source: string, problem: string, cause?: unknown): MemoryError {
  return new MemoryError('PROVIDER_ERROR', `Enricher ${source} returned an invalid answer: ${problem}.`, {
    details: { model: source },
    operation: 'enrich',
    cause,
  });
}
