/**
 * recall_memories' filters (categories, subtypes, time range, project, path or entities, tags),
 * validated into the store's MemoryFilter: every bad value is an INVALID_INPUT naming its field.
 */
import type { RecallInput } from '../api/longTermApi.ts';
import { MemoryError } from '../domain/errors.ts';
import { MEMORY_CATEGORIES, MEMORY_SUBTYPES } from '../domain/taxonomy.ts';
import type { MemoryFilter } from '../ports/memoryStore.ts';
import { parseIsoTimestamp } from '../util/time.ts';
import { LIMITS, requireId, requireStringList } from '../validation.ts';
import { pathEntity } from '../anchors/anchorModel.ts';
import { requireAnchorPath } from '../anchors/anchorPaths.ts';

export function buildRecallFilter(
  userId: string,
  input: Omit<RecallInput, 'query' | 'user_id'>,
  defaultProjectId: string | null | undefined,
): MemoryFilter {
  const categories = input.memory_categories ?? [];
  for (const category of categories) {
    if (!MEMORY_CATEGORIES.includes(category)) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Unknown memory category "${category}". Use: ${MEMORY_CATEGORIES.join(', ')}.`,
        { details: { field: 'memory_categories' } },
      );
    }
  }
  const subtypes = requireStringList(input.memory_subtypes, 'memory_subtypes', 30, 40);
  for (const subtype of subtypes) {
    if (!(MEMORY_SUBTYPES as string[]).includes(subtype)) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Unknown memory subtype "${subtype}". Use: ${MEMORY_SUBTYPES.join(', ')}.`,
        {
          details: { field: 'memory_subtypes' },
        },
      );
    }
  }
  const after = input.time_range?.after ? parseIsoTimestamp(input.time_range.after, 'time_range.after') : undefined;
  const before = input.time_range?.before ? parseIsoTimestamp(input.time_range.before, 'time_range.before') : undefined;
  if (after && before && after > before) {
    throw new MemoryError('INVALID_INPUT', 'time_range.after must not be later than time_range.before.', {
      details: { field: 'time_range' },
    });
  }
  const projectId = input.project_id !== undefined ? input.project_id : defaultProjectId;
  if (input.path !== undefined && input.entities && input.entities.length > 0) {
    throw new MemoryError(
      'INVALID_INPUT',
      'path and entities cannot be combined: path already filters by the file:<path> entity.',
      { details: { field: 'path' } },
    );
  }
  const entities = input.path !== undefined ? [pathEntity(requireAnchorPath(input.path, 'path'))] : input.entities;
  return {
    user_id: userId,
    ...(projectId !== undefined ? { project_id: projectId === null ? null : requireId(projectId, 'project_id') } : {}),
    ...(categories.length > 0 ? { categories } : {}),
    ...(subtypes.length > 0 ? { subtypes } : {}),
    ...(entities && entities.length > 0
      ? { entities: requireStringList(entities, 'entities', LIMITS.entities, LIMITS.entityChars) }
      : {}),
    ...(input.tags && input.tags.length > 0
      ? { tags: requireStringList(input.tags, 'tags', LIMITS.tags, LIMITS.tagChars) }
      : {}),
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
    ...(input.include_low_confidence ? {} : { min_confidence: 0.8 }),
    state: 'live',
  };
}

/**
 * Entities that are all `file:<path>` ask "what do we know about these files", like `path`: every
 * memory anchored to (or naming) them is a candidate, whatever the query's words.
 */
export function isFileFilter(entities: readonly string[] | undefined): boolean {
  return entities !== undefined && entities.length > 0 && entities.every((entity) => entity.startsWith('file:'));
}
