import { MemoryError } from '../domain/errors.ts';
import { TAXONOMY, isMemoryCategory } from '../domain/taxonomy.ts';
import { FACT_CATEGORIES, type FactCategory } from '../facts/factModel.ts';
import { normaliseEntities } from '../entities/extractEntities.ts';
import type { ExtractedMemory } from './extractor.ts';
import { parseFencedJson } from '../util/fencedJson.ts';

const MAX_MEMORIES = 50;
const MAX_CONTENT_CHARS = 4_000;
const MEMORY_KEYS = new Set([
  'content',
  'category',
  'subtype',
  'importance',
  'entities',
  'is_temporal',
  'fact',
  'corrects',
]);
const FACT_KEY = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/**
 * Strict validation of a model's answer: the whole answer is rejected (PROVIDER_ERROR, retryable)
 * rather than half-used, because a model that breaks the schema once is not trusted for the rest.
 * Tolerates only a surrounding ```json fence, which chat models add even when told not to.
 */
export function parseExtraction(text: string, source: string): ExtractedMemory[] {
  const parsed = parseFencedJson(text, (problem, cause) => invalid(source, problem, cause));
  if (!isObject(parsed) || !Array.isArray(parsed.memories))
    throw invalid(source, 'answer must be an object with a "memories" array');
  if (parsed.memories.length > MAX_MEMORIES)
    throw invalid(source, `answer has ${parsed.memories.length} memories, more than ${MAX_MEMORIES}`);
  return parsed.memories.map((raw: unknown, index: number) => parseMemory(raw, `memories[${index}]`, source));
}

function parseMemory(raw: unknown, path: string, source: string): ExtractedMemory {
  if (!isObject(raw)) throw invalid(source, `${path} is not an object`);
  const unknownKey = Object.keys(raw).find((key) => !MEMORY_KEYS.has(key));
  if (unknownKey) throw invalid(source, `${path} has unknown key "${unknownKey}"`);
  const { content, category, subtype, importance, entities, is_temporal: isTemporal, fact, corrects } = raw;
  if (typeof content !== 'string' || content.trim().length === 0 || content.length > MAX_CONTENT_CHARS)
    throw invalid(source, `${path}.content must be a non-empty string of at most ${MAX_CONTENT_CHARS} characters`);
  if (typeof category !== 'string' || !isMemoryCategory(category))
    throw invalid(source, `${path}.category "${String(category)}" is not a memory category`);
  const subtypes = TAXONOMY[category] as readonly string[];
  if (typeof subtype !== 'string' || !subtypes.includes(subtype))
    throw invalid(source, `${path}.subtype "${String(subtype)}" is not valid for ${category}`);
  if (typeof importance !== 'number' || !Number.isFinite(importance) || importance < 0 || importance > 1)
    throw invalid(source, `${path}.importance must be a number in 0..1`);
  if (!Array.isArray(entities) || entities.some((entity) => typeof entity !== 'string'))
    throw invalid(source, `${path}.entities must be an array of strings`);
  if (typeof isTemporal !== 'boolean') throw invalid(source, `${path}.is_temporal must be a boolean`);
  if (corrects !== undefined && corrects !== null && (typeof corrects !== 'string' || corrects.trim().length === 0))
    throw invalid(source, `${path}.corrects must be null or a non-empty string`);
  const parsedFact = fact === undefined || fact === null ? undefined : parseFact(fact, `${path}.fact`, source);
  return {
    content: content.trim(),
    category,
    subtype: subtype as ExtractedMemory['subtype'],
    importance,
    entities: normaliseEntities(entities as string[]),
    is_temporal: isTemporal,
    ...(parsedFact ? { fact: parsedFact } : {}),
    ...(typeof corrects === 'string' ? { correction: { replaces: corrects.trim() } } : {}),
  };
}

function parseFact(raw: unknown, path: string, source: string): NonNullable<ExtractedMemory['fact']> {
  if (!isObject(raw)) throw invalid(source, `${path} must be null or an object`);
  const { category, key, value } = raw;
  if (typeof category !== 'string' || !(FACT_CATEGORIES as readonly string[]).includes(category))
    throw invalid(source, `${path}.category must be one of ${FACT_CATEGORIES.join(', ')}`);
  if (typeof key !== 'string' || !FACT_KEY.test(key)) throw invalid(source, `${path}.key must be a snake_case key`);
  if (typeof value !== 'string' || value.trim().length === 0)
    throw invalid(source, `${path}.value must be a non-empty string`);
  return { category: category as FactCategory, key, value: value.trim() };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(source: string, problem: string, cause?: unknown): MemoryError {
  return new MemoryError('PROVIDER_ERROR', `Extractor ${source} returned an invalid answer: ${problem}.`, {
    details: { extractor: source },
    operation: 'extract',
    cause,
  });
}
