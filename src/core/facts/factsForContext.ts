import type { ContextItem } from '../api/contextApi.ts';
import type { CoreDeps } from '../coreDeps.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { type LayerScope, groupByPartition, scopeRef } from '../layers/layerScope.ts';
import { listAllMemories } from '../lifecycle/listAll.ts';
import { FACT_TAG, type Fact, factOfMemory } from './factModel.ts';
import { effectiveFacts } from './factPrecedence.ts';

/** Facts are few per user (seed 002: ~10-50); this bounds a pathological account. */
const MAX_CONTEXT_FACTS = 100;

/**
 * Every structured fact in effect for the call as get_relevant_context items (seed 002 stage 1:
 * guaranteed recall, no vectors), read from each layer the call opens. Where layers set the same
 * key, only the most specific value is included (seed 001: project "tabs" beats company "spaces").
 * `projectId` keeps project-specific facts of the user's own layer to that project.
 */
export async function activeFactsForContext(
  deps: CoreDeps,
  scopes: readonly LayerScope[],
  userId: string,
  projectId: string | null | undefined,
): Promise<ContextItem[]> {
  const facts: Array<Fact & { memory: MemoryRecord }> = [];
  for (const [partition, group] of groupByPartition(scopes)) {
    const { items } = await listAllMemories(
      deps.store,
      {
        user_id: partition,
        scopes: group.map(scopeRef),
        tags: [FACT_TAG],
        state: 'live',
        ...(partition === userId && projectId !== undefined ? { project_id: projectId } : {}),
      },
      MAX_CONTEXT_FACTS,
    );
    for (const memory of items) {
      const fact = factOfMemory(memory);
      if (fact) facts.push({ ...fact, memory });
    }
  }
  const effective = effectiveFacts(facts).sort(
    (a, b) => b.fact.importance - a.fact.importance || a.fact.created_at.localeCompare(b.fact.created_at),
  );
  return effective.map(({ fact, overridden }) => {
    const { memory } = fact;
    const content = `${fact.category}/${fact.key}: ${fact.value}`;
    const overrides = overridden.map((other) => `"${other.value}" (${other.layer} layer)`).join(', ');
    return {
      source: 'long_term' as const,
      memory_id: memory.memory_id,
      memory_category: memory.memory_category,
      memory_subtype: memory.memory_subtype,
      layer: memory.layer,
      content,
      relevance_score: 1,
      token_count: deps.tokens.count(content),
      entities: memory.entities,
      confidence: memory.confidence,
      source_type: memory.source_type,
      why_included:
        `Structured fact ${fact.category}/${fact.key} (${memory.layer} layer): facts are always included ahead of searched memories.` +
        (overrides ? ` It overrides ${overrides}: the more specific layer wins.` : ''),
    };
  });
}
