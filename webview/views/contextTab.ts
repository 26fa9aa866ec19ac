import type { GetRelevantContextOutput } from '../../src/shared/panelProtocol.ts';
import { describeError } from '../panelClient.ts';
import type { PanelContext } from '../panelContext.ts';
import { consume } from '../ui/keys.ts';
import { h, icon, replaceChildren } from '../ui/dom.ts';
import { describeOrigin, nearDuplicates, readableReason, unwrapEnvelope } from './contextPreviewText.ts';

/**
 * Shows exactly what get_relevant_context would hand the agent for a question and budget. The
 * host runs it with access logging off, so previewing never changes what is recalled later.
 */
export class ContextTab {
  readonly element = h('div', { class: 'context-tab' });
  private readonly context: PanelContext;
  private readonly question: HTMLTextAreaElement;
  private readonly budget: HTMLInputElement;
  private readonly results = h('div', { class: 'preview-results', 'aria-live': 'polite' });
  private hasResult = false;

  constructor(context: PanelContext) {
    this.context = context;
    const state = context.ui.state;
    this.question = h('textarea', {
      rows: '3',
      placeholder: 'Ask what the agent would ask…',
      'aria-label': 'Question to preview context for',
    });
    this.question.value = state.previewQuery;
    this.question.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        consume(event);
        void this.preview();
      }
    });
    this.budget = h('input', {
      type: 'number',
      min: '50',
      max: '200000',
      step: '50',
      value: String(state.previewBudget),
      'aria-label': 'Token budget',
    });
    this.element.append(
      h(
        'form',
        {
          class: 'preview-form',
          onsubmit: (event: Event) => {
            event.preventDefault();
            void this.preview();
          },
        },
        h(
          'label',
          { class: 'field' },
          h('span', { class: 'field-label' }, 'Question (Ctrl+Enter previews)'),
          this.question,
        ),
        h(
          'div',
          { class: 'editor-row' },
          h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Token budget'), this.budget),
          context.init.host === 'vscode'
            ? h(
                'button',
                { type: 'button', class: 'secondary', onclick: () => void this.useSelection() },
                icon('selection'),
                ' Use selection',
              )
            : null,
          h('button', { type: 'submit' }, icon('eye'), ' Preview'),
        ),
      ),
      this.results,
    );
  }

  async start(): Promise<void> {
    replaceChildren(
      this.results,
      h(
        'p',
        { class: 'muted' },
        'Type a question to see the context items, their token costs and why each was chosen.',
      ),
    );
  }

  /** Re-runs a shown preview after a change, so it never shows stale context. */
  async refresh(): Promise<void> {
    if (this.hasResult) await this.preview();
  }

  private async useSelection(): Promise<void> {
    try {
      const { text } = await this.context.client.request('editor/selection', {});
      if (!text) return this.context.toasts.show('Select some text in the editor first.');
      this.question.value = text;
      await this.preview();
    } catch (error) {
      this.context.toasts.show(describeError(error), 'error');
    }
  }

  private async preview(): Promise<void> {
    const query = this.question.value.trim();
    const budget = Number(this.budget.value);
    if (!query) return this.context.toasts.show('Type a question to preview.');
    this.context.ui.update({ previewQuery: query, previewBudget: budget });
    replaceChildren(this.results, h('p', { class: 'loading' }, 'Assembling context…'));
    try {
      this.render(await this.context.client.request('context/preview', { query, token_budget: budget }), budget, query);
      this.hasResult = true;
    } catch (error) {
      replaceChildren(this.results, h('div', { class: 'error-box', role: 'alert' }, describeError(error)));
    }
  }

  private render(output: GetRelevantContextOutput, budget: number, query: string): void {
    const stats = output.retrieval_stats;
    const items = output.context_items.map((item) => ({ item, ...unwrapEnvelope(item.content) }));
    const duplicateOf = nearDuplicates(items.map((entry) => entry.body));
    const duplicateTokens = items.reduce(
      (total, entry, index) => total + (duplicateOf[index] >= 0 ? entry.item.token_count : 0),
      0,
    );
    replaceChildren(
      this.results,
      h(
        'div',
        { class: 'preview-summary' },
        h(
          'strong',
          null,
          `${output.total_tokens.toLocaleString()} of ${budget.toLocaleString()} tokens (${output.budget_used_pct.toFixed(0)}%)`,
        ),
        ` · ${output.context_items.length} items`,
        duplicateTokens > 0
          ? h('span', { class: 'duplicate-note' }, ` · ${duplicateTokens.toLocaleString()} on near-duplicates`)
          : null,
        budgetBar(output.total_tokens, duplicateTokens, budget),
        h(
          'span',
          { class: 'muted' },
          `${describeIntent(output.detected_intent)} · ${stats.working_memory_items} from working memory, ${stats.long_term_returned} of ${stats.long_term_searched} long-term memories searched · ${stats.mode} search`,
        ),
      ),
      output.context_items.length === 0
        ? h('p', { class: 'empty' }, 'Nothing relevant fits; the agent would get no memory context.')
        : h(
            'ol',
            { class: 'preview-items', 'aria-label': 'Context items in the order the agent receives them' },
            items.map(({ item, body, attributes }, index) =>
              h(
                'li',
                { class: `preview-item${duplicateOf[index] >= 0 ? ' near-duplicate' : ''}` },
                h(
                  'div',
                  { class: 'row-meta' },
                  h('span', { class: 'badge' }, `${index + 1}`),
                  h(
                    'span',
                    { class: 'badge' },
                    item.source === 'working_memory'
                      ? 'working memory'
                      : `${item.memory_category}/${item.memory_subtype}`,
                  ),
                  h('span', null, `${item.token_count} tokens`),
                  h('span', { class: 'score' }, `relevance ${item.relevance_score.toFixed(2)}`),
                  duplicateOf[index] >= 0
                    ? h(
                        'span',
                        {
                          class: 'badge duplicate',
                          title: 'Says nearly the same as an earlier item: its tokens buy little',
                        },
                        `near-duplicate of ${duplicateOf[index] + 1}`,
                      )
                    : null,
                ),
                h('p', { class: 'preview-text' }, body),
                h(
                  'p',
                  { class: 'why' },
                  h('span', { class: 'muted' }, 'Why: '),
                  readableReason(item.why_included, query, body),
                ),
                Object.keys(attributes).length > 0
                  ? h('p', { class: 'muted origin' }, describeOrigin(attributes))
                  : null,
                h(
                  'details',
                  { class: 'raw-item' },
                  h('summary', null, 'Raw text the agent receives'),
                  h('pre', { class: 'working-content' }, item.content),
                ),
              ),
            ),
          ),
    );
  }
}

/** The budget filled, the part spent on near-duplicates marked. */
function budgetBar(used: number, duplicates: number, budget: number): HTMLElement {
  const bar = h('div', {
    class: 'budget-bar',
    role: 'meter',
    'aria-valuemin': '0',
    'aria-valuemax': String(budget),
    'aria-valuenow': String(used),
    'aria-label': 'Token budget filled',
  });
  const share = (tokens: number): string => `${budget > 0 ? Math.min(100, (tokens / budget) * 100) : 0}%`;
  const fill = h('div', { class: 'budget-fill' });
  fill.style.width = share(used - duplicates);
  const wasted = h('div', { class: 'budget-fill duplicate' });
  wasted.style.width = share(duplicates);
  bar.append(fill, wasted);
  return bar;
}

const INTENTS: Record<string, string> = {
  how_to: 'asks how to do something',
  what_happened: 'asks what happened',
  what_is: 'asks what something is',
  debug: 'debugging',
  general: 'a general question',
};

function describeIntent(intent: string): string {
  return `Question ${INTENTS[intent] ?? intent}`;
}
