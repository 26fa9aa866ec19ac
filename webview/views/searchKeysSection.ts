import type { EnrichmentState, SearchKeyView } from '../../src/shared/panelProtocol.ts';
import { formatDate, h, iconButton } from '../ui/dom.ts';

export interface SearchKeyActions {
  removeKey(key: string): void;
  addKey(key: string): void;
}

/** Who added a key, as the user reads it: "agent", "you", "model openai:gpt-4o-mini, 3 Mar 14:02". */
function originLabel(view: SearchKeyView): string {
  if (view.by === 'model') return `model ${view.model ?? 'unknown'}, ${formatDate(view.at)}`;
  return view.by === 'user' ? `you, ${formatDate(view.at)}` : 'agent';
}

function enrichmentLine(state: EnrichmentState | null): string | null {
  switch (state?.status) {
    case undefined:
      return null;
    case 'pending':
      return 'A language model is adding search keys in the background.';
    case 'done':
      return `Enriched by ${state.model} on ${formatDate(state.at)} (${state.keys} key${state.keys === 1 ? '' : 's'}).`;
    case 'skipped':
      return `Not sent to a language model (${state.reason === 'secret' ? 'it held a secret' : state.reason === 'excluded_file' ? 'it is about an excluded file' : state.reason}).`;
    case 'failed':
      return `Enrichment by ${state.model} failed after ${state.attempts} attempt(s) [${state.code}]; it is retried when the memory process restarts.`;
  }
}

/**
 * The memory's search keys (extra words recall finds it by, at a lower weight than its own), each
 * with where it came from, a button to remove it, and a field to add one.
 */
export function renderSearchKeys(
  keys: readonly SearchKeyView[],
  enrichment: EnrichmentState | null,
  editable: boolean,
  actions: SearchKeyActions,
): HTMLElement[] {
  const status = enrichmentLine(enrichment);
  const list =
    keys.length === 0
      ? h('p', { class: 'muted' }, 'none')
      : h(
          'ul',
          { class: 'search-keys', 'aria-label': 'Search keys' },
          keys.map((view) =>
            h(
              'li',
              { 'data-key': view.key, 'data-by': view.by },
              h('span', { class: 'chip' }, view.key),
              h('span', { class: 'muted key-origin' }, ` ${originLabel(view)} `),
              editable
                ? iconButton('close', `Remove search key ${view.key}`, () => actions.removeKey(view.key), {
                    'data-action': 'remove-key',
                  })
                : null,
            ),
          ),
        );
  const input = h('input', {
    type: 'text',
    'aria-label': 'New search key',
    placeholder: 'Add a search key',
    maxlength: '100',
  }) as HTMLInputElement;
  const form = editable
    ? h(
        'form',
        {
          class: 'add-key',
          onsubmit: (event: Event) => {
            event.preventDefault();
            const key = input.value.trim();
            if (key !== '') actions.addKey(key);
          },
        },
        input,
        h('button', { type: 'submit', 'data-action': 'add-key', class: 'secondary' }, 'Add'),
      )
    : null;
  return [
    h('h3', null, 'Search keys'),
    ...(status ? [h('p', { class: 'muted enrichment-status' }, status)] : []),
    list,
    ...(form ? [form] : []),
  ];
}
