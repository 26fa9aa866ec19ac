import { MemoryError } from '../core/domain/errors.ts';
import type { LayerIdentifiers } from '../core/domain/layers.ts';
import { IDENTIFIER_NAMES } from './knowledgeEntry.ts';

/**
 * Reading OpenSpec request bodies and query strings. Only the shape is checked here (objects,
 * strings, numbers); every value is validated by the same core functions the MCP tools call, so
 * both surfaces accept and refuse exactly the same things.
 */

export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MemoryError('INVALID_INPUT', `${field} must be a JSON object.`, { details: { field } });
  }
  return value as Record<string, unknown>;
}

export function optionalObject(value: unknown, field: string): Record<string, unknown> | undefined {
  return value === undefined || value === null ? undefined : requireObject(value, field);
}

export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new MemoryError('INVALID_INPUT', `${field} must be a string.`, { details: { field } });
  return value;
}

export function optionalNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new MemoryError('INVALID_INPUT', `${field} must be a number.`, { details: { field } });
  return value;
}

export function optionalStringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new MemoryError('INVALID_INPUT', `${field} must be a list of strings.`, { details: { field } });
  }
  return value as string[];
}

/** `identifiers` of a body (camelCase) as the core's snake_case identifiers. */
export function readIdentifiers(value: unknown, field = 'identifiers'): LayerIdentifiers {
  const wire = optionalObject(value, field) ?? {};
  const ids: LayerIdentifiers = {};
  for (const [wireName, coreName] of IDENTIFIER_NAMES) {
    const given = optionalString(wire[wireName], `${field}.${wireName}`);
    if (given !== undefined) ids[coreName] = given;
  }
  return ids;
}

/** The same identifiers given as query parameters (?layer=project&projectId=P), for routes without a body. */
export function identifiersFromQuery(params: URLSearchParams): LayerIdentifiers {
  const ids: LayerIdentifiers = {};
  for (const [wireName, coreName] of IDENTIFIER_NAMES) {
    const given = params.get(wireName);
    if (given !== null) ids[coreName] = given;
  }
  return ids;
}
