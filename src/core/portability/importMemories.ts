import type { CoreDeps } from '../coreDeps.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryRecord, SessionRecord, WorkingItemRecord } from '../domain/records.ts';
import { guardJson, guardText, mergeRedactions, type Redaction } from '../safety/contentGuard.ts';
import { sha256Hex } from '../util/sha256.ts';
import { requireContent, requireId } from '../validation.ts';
import { invalid, type ParsedExport, validateExport } from './exportFileReader.ts';
import { YieldEvery } from '../util/yieldEvery.ts';

export interface ImportOutput {
  memories_imported: number;
  memories_skipped: number;
  sessions_imported: number;
  sessions_skipped: number;
  working_items_imported: number;
  /** Ids that had to change (they belong to someone else in this store), original → new. */
  remapped_ids: Record<string, string>;
  redactions: Redaction[];
}

/**
 * import_memories: loads an export into `userId`'s memory. Idempotent by memory_id: a memory
 * the user already has is skipped, so importing the same file twice changes nothing. Every
 * record is re-owned by the importing user. An id this user does not have is given a new id
 * derived from (user, original id): the store port cannot tell whether another user holds the
 * original, and an import must never overwrite or collide with someone else's memory. The
 * derived id is stable, so re-importing stays idempotent. Content passes the secret gate.
 */
export async function importMemories(deps: CoreDeps, userId: string, data: unknown): Promise<ImportOutput> {
  const user = requireId(userId, 'user_id');
  const parsed = validateExport(data);
  // Everything is validated, guarded and built before the first write: a bad record anywhere in
  // the file (or a secret under the refuse policy) fails the import with nothing written.
  const plan = await planImport(deps, user, parsed);
  await writePlan(deps, plan);
  if (plan.memories.length > 0)
    deps.events.emit({
      type: 'memory',
      user_id: user,
      memory_ids: plan.memories.map((memory) => memory.memory_id),
      change: 'created',
    });
  return {
    memories_imported: plan.memories.length,
    memories_skipped: plan.memoriesSkipped,
    sessions_imported: plan.sessions.length,
    sessions_skipped: plan.sessionsSkipped,
    working_items_imported: plan.sessions.reduce((total, change) => total + change.upsert.length, 0),
    remapped_ids: plan.remapped,
    redactions: mergeRedactions(...plan.redactions),
  };
}

interface ImportPlan {
  memories: MemoryRecord[];
  memoriesSkipped: number;
  sessions: Array<{ session: SessionRecord; upsert: WorkingItemRecord[] }>;
  sessionsSkipped: number;
  remapped: Record<string, string>;
  redactions: Redaction[][];
}

async function planImport(deps: CoreDeps, user: string, parsed: ParsedExport): Promise<ImportPlan> {
  const originalIds = parsed.memories.map((memory) => memory.memory_id);
  const derived = new Map(originalIds.map((id) => [id, derivedId('mem', user, id)]));
  const existing = new Set(
    (await deps.store.getMemories(user, [...originalIds, ...derived.values()])).map((memory) => memory.memory_id),
  );
  // Ids the user already has keep their id (their own re-import); the rest get the derived id.
  const idFor = (id: string) => (existing.has(id) ? id : (derived.get(id) ?? derivedId('mem', user, id)));
  const plan: ImportPlan = {
    memories: [],
    memoriesSkipped: 0,
    sessions: [],
    sessionsSkipped: 0,
    remapped: {},
    redactions: [],
  };
  const planned = new Set<string>();
  const slice = new YieldEvery(100);
  for (const memory of parsed.memories) {
    await slice.step();
    const id = idFor(memory.memory_id);
    if (existing.has(id) || planned.has(id)) {
      plan.memoriesSkipped++;
      continue;
    }
    if (id !== memory.memory_id) plan.remapped[memory.memory_id] = id;
    const content = guardText(requireContent(memory.content), deps.config);
    const metadata = guardJson(memory.metadata, deps.config);
    // Every stored text of the record passes the gate, not only content and metadata: entities,
    // tags and the summary are searched and shown like content.
    const entities = guardJson(memory.entities, deps.config, 'entities');
    const tags = guardJson(memory.tags, deps.config, 'tags');
    const summary = memory.summary === null ? null : guardText(memory.summary, deps.config, 'summary');
    plan.redactions.push(content.redactions, metadata.redactions, entities.redactions, tags.redactions);
    if (summary) plan.redactions.push(summary.redactions);
    const record: MemoryRecord = {
      ...memory,
      memory_id: id,
      user_id: user,
      // The user layer is scoped by the user id, which is the importing user's now.
      scope_id: memory.layer === 'user' ? user : memory.scope_id,
      content: content.content,
      summary: summary ? summary.content : null,
      entities: entities.value,
      tags: tags.value,
      metadata: metadata.value,
      related_memories: memory.related_memories.map(idFor),
      supersedes: memory.supersedes ? idFor(memory.supersedes) : null,
      superseded_by: memory.superseded_by ? idFor(memory.superseded_by) : null,
      // The embedding is not in the export; lazy re-embedding (backfillEmbeddings) creates it.
      embedding_model: null,
    };
    plan.memories.push(record);
    planned.add(id);
  }

  const sessionIds = new Set(parsed.sessions.map((session) => session.session_id));
  const orphan = parsed.working_items.findIndex((item) => !sessionIds.has(item.session_id));
  if (orphan !== -1)
    throw invalid(
      `working_items[${orphan}].session_id names no session of the file.`,
      `working_items[${orphan}].session_id`,
    );
  for (const [index, session] of parsed.sessions.entries()) {
    const current = await deps.store.getSession(session.session_id);
    const sessionId =
      current && current.user_id !== user ? derivedId('sess', user, session.session_id) : session.session_id;
    const owned = current?.user_id === user ? current : await deps.store.getSession(sessionId);
    if (owned || plan.sessions.some((entry) => entry.session.session_id === sessionId)) {
      plan.sessionsSkipped++;
      continue;
    }
    if (sessionId !== session.session_id) plan.remapped[session.session_id] = sessionId;
    const items = parsed.working_items
      .filter((item) => item.session_id === session.session_id)
      .map((item): WorkingItemRecord => {
        const guarded = guardText(requireContent(item.content), deps.config);
        const metadata = guardJson(item.metadata, deps.config);
        plan.redactions.push(guarded.redactions, metadata.redactions);
        // Token counts are recounted, never taken from the file: they are the session's budget.
        return {
          ...item,
          session_id: sessionId,
          user_id: user,
          content: guarded.content,
          metadata: metadata.value,
          token_count: deps.tokens.count(guarded.content),
          item_id: derivedId('wmi', user, `${sessionId}/${item.item_id}`),
        };
      });
    // A session's config is free-form JSON from the file: it passes the same gate as metadata.
    const config = guardJson(session.config, deps.config, 'config');
    plan.redactions.push(config.redactions);
    const totalTokens = items.reduce((total, item) => total + item.token_count, 0);
    if (totalTokens > session.max_tokens) {
      throw invalid(
        `sessions[${index}] holds ${totalTokens} tokens of working items but its max_tokens is ${session.max_tokens}.`,
        `sessions[${index}].max_tokens`,
      );
    }
    const nextSequence = Math.max(session.next_sequence, ...items.map((item) => item.sequence_num + 1));
    plan.sessions.push({
      session: {
        ...session,
        config: config.value,
        session_id: sessionId,
        user_id: user,
        total_tokens: totalTokens,
        next_sequence: nextSequence,
      },
      upsert: items,
    });
  }
  return plan;
}

/**
 * Writes a validated plan. Should the store fail part-way (disk full, backend down), what this
 * import wrote is removed again before the error is reported, so the import is all or nothing.
 */
async function writePlan(deps: CoreDeps, plan: ImportPlan): Promise<void> {
  const writtenMemories: MemoryRecord[] = [];
  const writtenSessions: Array<{ session: SessionRecord; upsert: WorkingItemRecord[] }> = [];
  try {
    for (const memory of plan.memories) {
      await deps.store.insertMemory(memory, null);
      writtenMemories.push(memory);
    }
    for (const change of plan.sessions) {
      await deps.store.commitWorking({ session: change.session, upsert: change.upsert, delete: [] });
      writtenSessions.push(change);
    }
  } catch (error) {
    try {
      // An undo, not an erasure: nobody saw these rows, and a retry of the import must store the ids.
      for (const memory of writtenMemories) await deps.store.hardDeleteMemory(memory.user_id, memory.memory_id, 'undo');
      // Only sessions the import created are written (existing ones are skipped), so removing them is safe.
      for (const change of writtenSessions)
        await deps.store.deleteSession(change.session.user_id, change.session.session_id);
    } catch (undoError) {
      throw new MemoryError(
        'PROVIDER_ERROR',
        `Import failed and could not be fully undone; ${writtenMemories.length} memories may remain. First failure: ${String(error instanceof Error ? error.message : error)}`,
        { cause: undoError, operation: 'import_memories' },
      );
    }
    throw error;
  }
}

function derivedId(prefix: 'mem' | 'sess' | 'wmi', userId: string, original: string): string {
  return `${prefix}_${sha256Hex(`${userId}\u0000${original}`).slice(0, 32)}`;
}
