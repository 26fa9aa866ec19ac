import type { RecentRecall } from '../../src/shared/panelProtocol.ts';
import { formatDate, h } from '../ui/dom.ts';

/** Who asked, in the user's words: agents call MCP tools; the chat participant is the editor's own. */
const ASKED_BY: Record<string, string> = {
  recall_memories: 'Agent recall',
  get_relevant_context: 'Agent context',
  chat_participant: '@memory chat',
};

const SHOWN = 10;

/**
 * The latest recalls with the memories each handed out, so no memory reaches an agent or the
 * chat without the user being able to see it.
 */
export function recentRecallsSection(recalls: readonly RecentRecall[]): HTMLElement {
  if (recalls.length === 0) return h('p', { class: 'muted' }, 'No recalls yet in this session of the memory process.');
  return h(
    'ol',
    { class: 'recall-list', 'aria-label': 'Recent recalls, newest first' },
    recalls.slice(0, SHOWN).map((recall) =>
      h(
        'li',
        { class: 'recall-entry' },
        h(
          'div',
          { class: 'recall-head' },
          h('strong', null, ASKED_BY[recall.tool] ?? recall.tool),
          ' · ',
          h('q', null, recall.query),
          ' ',
          h('span', { class: 'muted' }, formatDate(recall.at)),
        ),
        recall.memories.length === 0
          ? h('p', { class: 'muted' }, 'Memory had nothing on it.')
          : h(
              'ul',
              { class: 'recall-memories' },
              recall.memories.map((memory) =>
                h(
                  'li',
                  { title: memory.memory_id },
                  memory.summary,
                  memory.layer && memory.layer !== 'user' ? h('span', { class: 'muted' }, ` (${memory.layer})`) : null,
                ),
              ),
            ),
      ),
    ),
  );
}
