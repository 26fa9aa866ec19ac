import type { MemoryLayer } from '../domain/layers.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord } from '../domain/records.ts';
import type { MemoryCategory, MemorySubtype } from '../domain/taxonomy.ts';
import { LIMITS } from '../validation.ts';

/**
 * Structured facts (seed 002): small, deterministic facts about a user, one active value per
 * category and key. They are ordinary memories with `metadata.fact` and two exact tags, so every
 * store, filter, export and the panel handle them without a table of their own.
 */

export const FACT_CATEGORIES = ['identity', 'preference', 'constraint', 'instruction'] as const;
export type FactCategory = (typeof FACT_CATEGORIES)[number];

/** Tag every fact carries, so "all facts" is one exact tag filter. */
export const FACT_TAG = 'fact';
/** The metadata key a fact's value lives under. */
export const FACT_FIELD = 'fact';

/** Where each fact category lives in the memory taxonomy. */
export const FACT_CLASSIFICATION: Record<FactCategory, { category: MemoryCategory; subtype: MemorySubtype }> = {
  identity: { category: 'semantic', subtype: 'user' },
  preference: { category: 'preference', subtype: 'style' },
  constraint: { category: 'preference', subtype: 'boundaries' },
  instruction: { category: 'preference', subtype: 'communication' },
};

export interface FactValue {
  category: FactCategory;
  key: string;
  value: string;
}

export interface Fact extends FactValue {
  memory_id: string;
  /** Layer the value was set in (seed 001); a more specific layer's value of the same key wins. */
  layer: MemoryLayer;
  scope_id: string;
  confidence: number;
  importance: number;
  active: boolean;
  created_at: string;
  updated_at: string;
  /** The memory this value replaced; null for the first value of the key. */
  supersedes: string | null;
  superseded_by: string | null;
  deleted: boolean;
}

const KEY_PATTERN = new RegExp(`^[a-z0-9][a-z0-9_.-]{0,${LIMITS.factKeyChars - 1}}$`);
export const MAX_FACT_VALUE_CHARS = LIMITS.factValueChars;

export function factTag(category: FactCategory, key: string): string {
  return `fact:${category}/${key}`;
}

export function requireFactCategory(value: unknown): FactCategory {
  if (typeof value !== 'string' || !(FACT_CATEGORIES as readonly string[]).includes(value)) {
    throw new MemoryError('INVALID_INPUT', `category must be one of ${FACT_CATEGORIES.join(', ')}.`, {
      details: { field: 'category' },
    });
  }
  return value as FactCategory;
}

/** Keys are case-insensitive identifiers (name, timezone, coding_style), stored lower-case. */
/** A key as requireFactKey leaves it (lower case, no spaces): what a memory file may name. */
export function isFactKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function requireFactKey(value: unknown): string {
  const key = typeof value === 'string' ? value.trim().toLowerCase().replace(/\s+/g, '_') : '';
  if (!KEY_PATTERN.test(key)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `key must be 1-${LIMITS.factKeyChars} characters of letters, digits, _ . - (e.g. name, timezone, coding_style).`,
      { details: { field: 'key' } },
    );
  }
  return key;
}

export function requireFactValue(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > MAX_FACT_VALUE_CHARS) {
    throw new MemoryError(
      'INVALID_INPUT',
      `value must be a non-empty string of at most ${MAX_FACT_VALUE_CHARS} characters.`,
      { details: { field: 'value' } },
    );
  }
  return value.trim();
}

/** The sentence stored as the memory's content, so full-text recall finds facts too. */
export function factContent(fact: FactValue): string {
  return `${fact.category} ${fact.key.replaceAll('_', ' ')}: ${fact.value}`;
}

/**
 * Which fact a memory's metadata holds, as "category/key", or null for a memory that is not a
 * fact. Near-duplicate merging compares it: "editor 0: vim" and "editor 1: vim" read alike but
 * are two facts, and merging one into the other would lose a value.
 */
export function factIdentity(metadata: Record<string, unknown>): string | null {
  const raw = metadata.fact as Partial<FactValue> | undefined;
  if (!raw || typeof raw.key !== 'string' || typeof raw.category !== 'string') return null;
  return `${raw.category}/${raw.key}`;
}

export function factOfMemory(memory: MemoryRecord): Fact | null {
  const raw = memory.metadata.fact as Partial<FactValue> | undefined;
  if (
    !raw ||
    typeof raw.key !== 'string' ||
    typeof raw.value !== 'string' ||
    !(FACT_CATEGORIES as readonly string[]).includes(raw.category as string)
  )
    return null;
  return {
    category: raw.category as FactCategory,
    key: raw.key,
    value: raw.value,
    memory_id: memory.memory_id,
    layer: memory.layer,
    scope_id: memory.scope_id,
    confidence: memory.confidence,
    importance: memory.importance,
    active: memory.deleted_at === null && memory.superseded_by === null,
    created_at: memory.created_at,
    updated_at: memory.updated_at,
    supersedes: memory.supersedes,
    superseded_by: memory.superseded_by,
    deleted: memory.deleted_at !== null,
  };
}
