import type { EditorAction } from '../../src/shared/panelProtocol.ts';
import { h, icon } from '../ui/dom.ts';

/**
 * What an empty store shows instead of a blank list: the next steps (Remember…, Import where the
 * host is an editor) and how memories arrive on their own, wrapped to the side bar's width.
 */
export function renderEmptyState(
  actions: readonly EditorAction[],
  run: (action: Exclude<EditorAction, 'go_to_code'>) => void,
): HTMLElement {
  const button = (action: 'remember' | 'import', codicon: string, label: string, primary: boolean): HTMLElement =>
    h(
      'button',
      { type: 'button', class: primary ? '' : 'secondary', 'data-action': action, onclick: () => run(action) },
      icon(codicon),
      ` ${label}`,
    );
  return h(
    'section',
    { class: 'empty-state', 'aria-label': 'No memories yet' },
    h('h2', null, 'No memories yet'),
    h(
      'p',
      null,
      'Memories are decisions, conventions, fixes and preferences worth keeping across sessions. ',
      actions.includes('remember') ? 'Add one yourself, or bring them from an export:' : '',
    ),
    actions.includes('remember') || actions.includes('import')
      ? h(
          'div',
          { class: 'empty-actions' },
          actions.includes('remember') ? button('remember', 'add', 'Remember…', true) : null,
          actions.includes('import') ? button('import', 'cloud-download', 'Import…', false) : null,
        )
      : null,
    h('h3', null, 'How agents store memories'),
    h(
      'p',
      null,
      'Agents connected to the Firebolt Memory MCP server (Copilot agent mode, Claude, Cursor) call its ',
      h('code', null, 'store_memory'),
      ' tool when they learn something worth keeping, and ',
      h('code', null, 'recall_memories'),
      ' before they answer. Errors you fix in the editor are kept as outcomes too.',
    ),
  );
}
