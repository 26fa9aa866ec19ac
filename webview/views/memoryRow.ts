import { h, icon, iconButton, relativeTime } from '../ui/dom.ts';
import type { ListRow } from './memoryListModel.ts';
import { scoreLabel } from './scoreBreakdown.ts';

const SHARED_LAYERS = new Set(['project', 'team', 'org', 'company']);

export interface RowState {
  active: boolean;
  open: boolean;
  selected: boolean;
}

export interface RowHandlers {
  toggleSelected(memoryId: string): void;
  setPinned(memoryId: string, pinned: boolean): void;
}

/** One line of the memories list; rows not loaded yet render as a busy line of the same height. */
export function renderMemoryRow(row: ListRow | undefined, state: RowState, handlers: RowHandlers): HTMLElement {
  if (!row)
    return h(
      'div',
      { class: 'memory-row loading-row', 'aria-busy': 'true', 'aria-label': 'Loading' },
      h('span', { class: 'muted' }, 'Loading…'),
    );
  const { active, open, selected } = state;
  return h(
    'div',
    {
      class: `memory-row${active ? ' active' : ''}${open ? ' open' : ''}${selected ? ' selected' : ''}`,
      'aria-selected': String(selected),
      'aria-label': rowLabel(row),
      title: row.recalled?.why_matched,
    },
    // Not in the tab order: the listbox handles Space; the checkbox is for pointer users. A shared
    // layer's memory is not selectable: the selection's actions (forget, restore, delete) are the user's own.
    SHARED_LAYERS.has(row.layer)
      ? h('span', { class: 'row-check', 'aria-hidden': 'true' })
      : h('input', {
          type: 'checkbox',
          class: 'row-check',
          tabindex: '-1',
          checked: selected,
          'aria-label': 'Select',
          onchange: () => handlers.toggleSelected(row.memory_id),
        }),
    h(
      'div',
      { class: 'row-main' },
      h('div', { class: 'row-content' }, row.pinned ? icon('pinned') : null, ' ', row.content),
      h(
        'div',
        { class: 'row-meta' },
        h('span', { class: `badge category-${row.memory_category}` }, `${row.memory_category}/${row.memory_subtype}`),
        row.layer !== 'user' ? h('span', { class: 'badge layer', title: 'Memory layer' }, row.layer) : null,
        row.repository
          ? h(
              'span',
              { class: 'badge repository', title: `In the repository: ${row.repository.provenance}` },
              icon('repo'),
              'repo',
            )
          : null,
        row.code
          ? h(
              'span',
              {
                class: `badge code code-${row.code.status}${row.code.status === 'changed' || row.code.status === 'gone' ? ' warning' : ''}`,
                title: row.code.details,
              },
              `code ${row.code.status}`,
            )
          : null,
        row.recalled ? h('span', { class: 'score', title: 'Relevance score' }, scoreLabel(row.recalled)) : null,
        // Ranked last: at side-bar width these facts shrink and end in "…" before any badge narrows.
        h('span', { class: 'row-facts', title: rowFacts(row) }, rowFacts(row)),
      ),
    ),
    // A shared layer's memory is changed through its file or an agent, not pinned from here.
    row.deleted || SHARED_LAYERS.has(row.layer)
      ? null
      : iconButton(
          row.pinned ? 'pinned' : 'pin',
          row.pinned ? 'Unpin' : 'Pin',
          () => handlers.setPinned(row.memory_id, !row.pinned),
          { tabindex: '-1', class: 'icon-button row-action' },
        ),
  );
}

/** Importance, recalls, age and entities: useful, but the first thing to give up space. */
function rowFacts(row: ListRow): string {
  return [
    `imp ${row.importance.toFixed(2)}`,
    `${row.access_count}×`,
    relativeTime(row.created_at),
    ...(row.entities.length > 0 ? [row.entities.slice(0, 3).join(', ')] : []),
  ].join(' · ');
}

function rowLabel(row: ListRow): string {
  const score = row.recalled ? `, relevance ${scoreLabel(row.recalled)} (${row.recalled.why_matched})` : '';
  const layer = row.layer !== 'user' ? `, ${row.layer} layer` : '';
  const code = row.code ? `, code ${row.code.status}` : '';
  const repository = row.repository ? `, in the repository ${row.repository.provenance}` : '';
  return `${row.pinned ? 'Pinned. ' : ''}${row.memory_category} ${row.memory_subtype}${layer}${repository}${code}${score}: ${row.content.slice(0, 140)}`;
}
