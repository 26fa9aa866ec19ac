import type { StoreMemoryInput } from '../../core/api/longTermApi.ts';
import { MemoryError } from '../../core/domain/errors.ts';
import type { MemoryRecord, SourceType } from '../../core/domain/records.ts';
import { assertValidClassification, type MemoryCategory } from '../../core/domain/taxonomy.ts';

/** The export file: plain JSON a person can read, versioned so later formats can still import it. */
export interface MemoryExport {
  format: 'firebolt-memory-export';
  version: 1;
  exported_at: string;
  user_id: string;
  memories: MemoryRecord[];
}

export function buildExport(userId: string, memories: MemoryRecord[], now = new Date()): MemoryExport {
  return { format: 'firebolt-memory-export', version: 1, exported_at: now.toISOString(), user_id: userId, memories };
}

/** Validates an export file and returns store inputs without a user (the importing user is applied). */
export function parseExport(value: unknown): Array<Omit<StoreMemoryInput, 'user_id'>> {
  const file = value as Partial<MemoryExport> | null;
  if (!file || file.format !== 'firebolt-memory-export' || file.version !== 1 || !Array.isArray(file.memories)) {
    throw new MemoryError(
      'INVALID_INPUT',
      'Not a Firebolt Memory export (expected format "firebolt-memory-export", version 1).',
    );
  }
  return file.memories.map((memory, index) => {
    if (
      !memory ||
      typeof memory.content !== 'string' ||
      typeof memory.memory_category !== 'string' ||
      typeof memory.memory_subtype !== 'string'
    ) {
      throw new MemoryError(
        'INVALID_INPUT',
        `Memory #${index + 1} of the export lacks content, memory_category or memory_subtype.`,
      );
    }
    assertValidClassification(memory.memory_category, memory.memory_subtype);
    return {
      content: memory.content,
      memory_category: memory.memory_category as MemoryCategory,
      memory_subtype: memory.memory_subtype,
      ...(typeof memory.importance === 'number' ? { importance: memory.importance } : {}),
      ...(Array.isArray(memory.entities) ? { entities: memory.entities } : {}),
      ...(memory.event_time ? { event_time: memory.event_time } : {}),
      metadata: {
        ...(memory.metadata ?? {}),
        ...(Array.isArray(memory.tags) && memory.tags.length ? { tags: memory.tags } : {}),
        imported_from: memory.memory_id,
      },
      project_id: memory.project_id ?? null,
      source_type: (memory.source_type ?? 'explicit') as SourceType,
      ...(typeof memory.confidence === 'number' ? { confidence: memory.confidence } : {}),
      ...(memory.pinned ? { pinned: true } : {}),
    };
  });
}
