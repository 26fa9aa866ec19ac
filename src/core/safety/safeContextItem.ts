import type { ContextItem } from '../api/contextApi.ts';
import type { TokenCounter } from '../tokens/tokenCounter.ts';
import { neutralise } from './neutralise.ts';

/** A context item whose content is delimited and defused, with its token count measured on that content so budgets stay honest. */
export function safeContextItem(item: Omit<ContextItem, 'token_count'>, tokens: TokenCounter): ContextItem {
  const { content } = neutralise(item.content, {
    source: item.source,
    ...(item.memory_id ? { memoryId: item.memory_id } : item.item_id ? { memoryId: item.item_id } : {}),
    ...(item.source_type ? { sourceType: item.source_type } : {}),
    ...(item.layer ? { layer: item.layer } : {}),
    ...(item.confidence !== undefined ? { confidence: item.confidence } : {}),
  });
  return { ...item, content, token_count: tokens.count(content) };
}
