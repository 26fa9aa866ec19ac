import { MemoryError } from './errors.ts';

/** The four long-term memory categories of the spec (seed 000 §6.3) and the subtypes valid for each. */
export const TAXONOMY = {
  episodic: ['event', 'decision', 'conversation', 'outcome'],
  semantic: ['user', 'project', 'environment', 'domain', 'entity'],
  procedural: ['workflow', 'pattern', 'tool_usage', 'debugging'],
  preference: ['communication', 'style', 'tools', 'boundaries'],
} as const;

export type MemoryCategory = keyof typeof TAXONOMY;
export type MemorySubtype = (typeof TAXONOMY)[MemoryCategory][number];

export const MEMORY_CATEGORIES = Object.keys(TAXONOMY) as MemoryCategory[];
export const MEMORY_SUBTYPES = [...new Set(Object.values(TAXONOMY).flat())] as MemorySubtype[];

export function isMemoryCategory(value: string): value is MemoryCategory {
  return Object.hasOwn(TAXONOMY, value);
}

export function categoryOfSubtype(subtype: string): MemoryCategory | undefined {
  return MEMORY_CATEGORIES.find((category) => (TAXONOMY[category] as readonly string[]).includes(subtype));
}

/** Throws INVALID_INPUT unless the pair is one the taxonomy allows. */
export function assertValidClassification(category: string, subtype: string): asserts subtype is MemorySubtype {
  if (!isMemoryCategory(category)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Unknown memory_category "${category}". Use one of: ${MEMORY_CATEGORIES.join(', ')}.`,
      {
        details: { field: 'memory_category' },
      },
    );
  }
  const allowed = TAXONOMY[category] as readonly string[];
  if (!allowed.includes(subtype)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `memory_subtype "${subtype}" is not valid for category "${category}". Valid subtypes: ${allowed.join(', ')}.`,
      { details: { field: 'memory_subtype' } },
    );
  }
}

/** The pair, typed, once the taxonomy allows it; INVALID_INPUT otherwise, as assertValidClassification. */
export function validClassification(
  category: string,
  subtype: string,
): { category: MemoryCategory; subtype: MemorySubtype } {
  assertValidClassification(category, subtype);
  // assertValidClassification refused every category the taxonomy does not have.
  return { category: category as MemoryCategory, subtype };
}
