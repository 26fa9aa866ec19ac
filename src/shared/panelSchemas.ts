import { z } from 'zod';
import { MEMORY_LAYERS } from '../core/domain/layers.ts';
import { LIMITS } from '../core/limits.ts';

/**
 * The parameters of every panel request, declared once. The host validates each request with its
 * method's schema; both ends take their parameter types from these schemas (panelProtocol.ts,
 * through `import type`, so zod never enters the webview bundle). Each rule's error reads as the
 * end of a sentence naming the field: "memory/list: limit must be a whole number from 0 to 1000."
 */

/** 'shared': the project layer of the panel's project (what the team shares, e.g. through the repository's `.memory/`). */
export const SCOPES = ['all', 'user', 'project', 'session', 'shared'] as const;
export const LIST_SORTS = ['recency', 'importance', 'access_count', 'created'] as const;
export const SEARCH_SORTS = ['relevance', ...LIST_SORTS] as const;
export const VIEWS = ['live', 'trash'] as const;
/** What the panel may ask the editor to do; a browser host offers none (PanelInit.editor_actions). */
export const EDITOR_ACTIONS = ['remember', 'import', 'go_to_code'] as const;

const text = () => z.string({ error: 'must be a string' });
const flag = () => z.boolean({ error: 'must be true or false' });

function wholeNumber(min: number, max: number) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z.number({ error: rule }).int({ error: rule }).min(min, { error: rule }).max(max, { error: rule });
}

function fraction() {
  const rule = 'must be a number from 0 to 1';
  return z.number({ error: rule }).min(0, { error: rule }).max(1, { error: rule });
}

function oneOf<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z.enum(allowed, { error: `must be one of ${allowed.join(', ')}` });
}

function textList(maxItems: number) {
  const rule = `must be a list of at most ${maxItems} strings`;
  return z.array(z.string({ error: rule }), { error: rule }).max(maxItems, { error: rule });
}

function nonEmptyTextList(maxItems: number) {
  const rule = `must be a non-empty list of at most ${maxItems} strings`;
  return z
    .array(z.string({ error: rule }), { error: rule })
    .min(1, { error: rule })
    .max(maxItems, { error: rule });
}

/** Filters the memories tab offers; absent fields do not filter. */
export const panelFilterSchema = z.object(
  {
    scope: oneOf(SCOPES).optional(),
    categories: textList(LIMITS.filterValues).optional(),
    subtypes: textList(LIMITS.filterValues).optional(),
    pinned: flag().optional(),
    source_types: textList(LIMITS.filterValues).optional(),
    entities: textList(LIMITS.filterValues).optional(),
    tags: textList(LIMITS.filterValues).optional(),
    /** Only memories whose anchored code changed or is gone (the stale-code tag the editor keeps). */
    stale: flag().optional(),
    /** Inclusive ISO dates (YYYY-MM-DD or full timestamps). */
    after: text().optional(),
    before: text().optional(),
    view: oneOf(VIEWS).optional(),
  },
  { error: 'must be an object' },
);

const nothing = z.object({}, { error: 'must be an object' });
const memoryIds = z.object({ memory_ids: nonEmptyTextList(LIMITS.batchIds) }, { error: 'must be an object' });

export const panelParamSchemas = {
  'panel/ready': nothing,
  'memory/list': z.object(
    {
      filter: panelFilterSchema,
      sort: oneOf(LIST_SORTS),
      offset: wholeNumber(0, Number.MAX_SAFE_INTEGER),
      limit: wholeNumber(0, LIMITS.pageRows),
    },
    { error: 'must be an object' },
  ),
  'memory/search': z.object(
    {
      query: text(),
      filter: panelFilterSchema,
      sort: oneOf(SEARCH_SORTS),
      limit: wholeNumber(1, LIMITS.recallLimit),
    },
    { error: 'must be an object' },
  ),
  'memory/get': z.object({ memory_id: text() }, { error: 'must be an object' }),
  'memory/update': z.object(
    {
      memory_id: text(),
      content: text().optional(),
      memory_category: text().optional(),
      memory_subtype: text().optional(),
      importance: fraction().optional(),
      tags: textList(LIMITS.tags).optional(),
      pinned: flag().optional(),
      /** The version the edit form was filled from: an edit of an older copy is a CONFLICT, not an overwrite. */
      expected_version: z.number().int().min(1).optional(),
    },
    { error: 'must be an object' },
  ),
  /** Adds (as the user's) or removes search keys; a removed key is never added back by a model. */
  'memory/searchKeys': z.object(
    { memory_id: text(), add: textList(LIMITS.searchKeys).optional(), remove: textList(LIMITS.searchKeys).optional() },
    { error: 'must be an object' },
  ),
  'memory/forget': memoryIds,
  'memory/restore': memoryIds,
  /** Permanent; `confirm` must be true so a stray call cannot purge (a missing one is CONFIRMATION_REQUIRED). */
  'memory/purge': z.object(
    { memory_ids: nonEmptyTextList(LIMITS.batchIds), confirm: z.literal(true, { error: 'must be true' }) },
    { error: 'must be an object' },
  ),
  /** Copies the memory into one of the init's promotion targets, recording who and when. */
  'memory/promote': z.object({ memory_id: text(), to_layer: oneOf(MEMORY_LAYERS) }, { error: 'must be an object' }),
  'working/state': nothing,
  'working/pin': z.object({ item_id: text(), pinned: flag() }, { error: 'must be an object' }),
  'working/evict': z.object({ item_id: text() }, { error: 'must be an object' }),
  'working/checkpoint': nothing,
  'working/clear': nothing,
  'overview/get': nothing,
  'context/preview': z.object(
    { query: text(), token_budget: wholeNumber(1, LIMITS.tokenBudget) },
    { error: 'must be an object' },
  ),
  /** The editor's selected text, for the context preview; always null in a browser. */
  'editor/selection': nothing,
  /** Runs an editor command: Remember…, Import, or Go to code (an anchored memory's code, memory_id required). */
  'editor/run': z.object(
    { action: oneOf(EDITOR_ACTIONS), memory_id: text().optional() },
    { error: 'must be an object' },
  ),
} as const;

/** The field whose absence or falsity means "not confirmed" rather than "malformed". */
export const CONFIRM_FIELD = 'confirm';
