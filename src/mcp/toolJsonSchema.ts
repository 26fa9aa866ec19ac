import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** Keywords that describe a field rather than constrain its values; they stay outside an anyOf. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated']);

/**
 * The JSON Schema a client sees for a zod object, in the current protocol's default dialect
 * (2020-12) without a `$schema` line: declaring the default costs every request tokens and says
 * nothing. Written for clients that accept one type per field: a nullable field is an `anyOf` of
 * single-typed branches, never a `type` array.
 */
export function toToolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete generated.$schema;
  return rewrite(generated) as JsonSchema;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // Property names of a JSON object are strings by definition; saying so again is noise.
    if (key === 'propertyNames' && isPlainStringSchema(value)) continue;
    // zod writes the safe-integer range on every integer; JSON numbers a client sends are within it anyway.
    if (
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = key === 'properties' || key === '$defs' ? mapValues(value as JsonSchema) : rewrite(value);
  }
  return Array.isArray(out.type) ? splitTypes(out) : out;
}

function mapValues(record: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, rewrite(value)]));
}

function isPlainStringSchema(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    (value as JsonSchema).type === 'string'
  );
}

/** `{type: [string, null], minLength: 1}` → `{anyOf: [{type: string, minLength: 1}, {type: null}]}`. */
function splitTypes(node: JsonSchema): JsonSchema {
  const annotations: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? annotations : constraints)[key] = value;
  }
  const branches = (node.type as string[]).map((type) => (type === 'null' ? { type } : { type, ...constraints }));
  return { ...annotations, anyOf: branches };
}
