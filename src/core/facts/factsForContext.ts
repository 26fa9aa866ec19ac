import type { ContextItem } from '../api/contextApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import { listAllMemories } from '../lifecycle/listAll.ts';
import { FACT_TAG, factOfMemory } from './factModel.ts';

/** Facts are few per user (seed 002: ~10-50); this bounds a pathological account. */
const MAX_CONTEXT_FACTS = 100;

/**
 * Every active structured fact of the user as get_relevant_context items (seed 002 stage 1:
 * guaranteed recall, no vectors). Facts are user-wide; `projectId` is accepted so the caller can
 * pass the session's scope and facts stored for that project are included as well.
 */
export async function activeFactsForContext(deps: CoreDeps, userId: string, projectId: string | null | undefined): Promise<ContextItem[]> {
  const { items } = await listAllMemories(
    deps.store,
    { user_id: userId, tags: [FACT_TAG], state: 'live', ...(projectId !== undefined ? { project_id: projectId } : {}) },
    MAX_CONTEXT_FACTS,
  );
  const facts = items
    .map((memory) => ({ memory, fact: factOfMemory(memory) }))
    .filter((entry) => entry.fact !== null)
    .sort((a, b) => b.memory.importance - a.memory.importance || a.memory.created_at.localeCompare(b.memory.created_at));
  return facts.map(({ memory, fact }) => {
    const content = `${fact!.category}/${fact!.key}: ${fact!.value}`;
    return {
      source: 'long_term' as const,
      memory_id: memory.memory_id,
      memory_category: memory.memory_category,
      memory_subtype: memory.memory_subtype,
      content,
      relevance_score: 1,
      token_count: deps.tokens.count(content),
      entities: memory.entities,
      confidence: memory.confidence,
      source_type: memory.source_type,
      why_included: `Structured fact ${fact!.category}/${fact!.key}: facts are always included ahead of searched memories.`,
    };
  });
}
