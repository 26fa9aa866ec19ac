import type { PanelFilter, PanelInit, Scope } from '../../src/shared/panelProtocol.ts';
import { h, iconButton } from '../ui/dom.ts';

const SCOPE_LABELS: Record<Scope, string> = {
  all: 'All scopes',
  user: 'User (all projects)',
  project: 'This project',
  session: 'This session',
  shared: 'Shared project layer',
};
const SOURCE_LABELS: Record<string, string> = {
  explicit: 'Explicit',
  conversation: 'Conversation',
  editor: 'Editor context',
  extraction: 'Extraction',
  inferred: 'Inferred',
  observed: 'Observed',
  working_memory: 'Working memory',
};

/** The filter controls; every change produces a new PanelFilter for the caller to apply. */
export function renderFilterBar(
  init: PanelInit,
  filter: PanelFilter,
  onChange: (filter: PanelFilter) => void,
): HTMLElement {
  const set = (patch: Partial<PanelFilter>): void => {
    const next: PanelFilter = { ...filter, ...patch };
    for (const key of Object.keys(next) as Array<keyof PanelFilter>) {
      const value = next[key];
      if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) delete next[key];
    }
    onChange(next);
  };
  const category = filter.categories?.[0] ?? '';
  const subtypes = category ? (init.taxonomy[category] ?? []) : [...new Set(Object.values(init.taxonomy).flat())];
  const field = (label: string, control: HTMLElement): HTMLElement =>
    h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), control);

  const select = (
    label: string,
    value: string,
    options: Array<[string, string]>,
    apply: (value: string) => void,
  ): HTMLElement =>
    field(
      label,
      h(
        'select',
        { onchange: (event: Event) => apply((event.target as HTMLSelectElement).value) },
        options.map(([optionValue, optionLabel]) =>
          h('option', { value: optionValue, selected: optionValue === value }, optionLabel),
        ),
      ),
    );

  const listInput = (label: string, values: string[] | undefined, apply: (values: string[]) => void): HTMLElement =>
    field(
      label,
      h('input', {
        type: 'text',
        value: (values ?? []).join(', '),
        placeholder: 'comma separated',
        onchange: (event: Event) =>
          apply(
            (event.target as HTMLInputElement).value
              .split(',')
              .map((part) => part.trim())
              .filter(Boolean),
          ),
      }),
    );

  return h(
    'div',
    { class: 'filter-bar', role: 'group', 'aria-label': 'Filters' },
    select(
      'Scope',
      filter.scope ?? 'all',
      init.scopes.map((scope) => [scope, SCOPE_LABELS[scope]]),
      (value) => set({ scope: value as Scope }),
    ),
    select(
      'Category',
      category,
      [['', 'Any category'], ...Object.keys(init.taxonomy).map((name): [string, string] => [name, name])],
      (value) => set({ categories: value ? [value] : [], subtypes: [] }),
    ),
    select(
      'Subtype',
      filter.subtypes?.[0] ?? '',
      [['', 'Any subtype'], ...subtypes.map((name): [string, string] => [name, name])],
      (value) => set({ subtypes: value ? [value] : [] }),
    ),
    select(
      'Pinned',
      filter.pinned === undefined ? '' : String(filter.pinned),
      [
        ['', 'Pinned or not'],
        ['true', 'Pinned only'],
        ['false', 'Not pinned'],
      ],
      (value) => set({ pinned: value === '' ? undefined : value === 'true' }),
    ),
    select(
      'Source',
      filter.source_types?.[0] ?? '',
      [['', 'Any source'], ...init.source_types.map((name): [string, string] => [name, SOURCE_LABELS[name] ?? name])],
      (value) => set({ source_types: value ? [value] : [] }),
    ),
    listInput('Entities', filter.entities, (values) => set({ entities: values })),
    listInput('Tags', filter.tags, (values) => set({ tags: values })),
    select(
      'Code',
      filter.stale ? 'stale' : '',
      [
        ['', 'Any code status'],
        ['stale', 'Stale code only'],
      ],
      (value) => set({ stale: value === 'stale' ? true : undefined }),
    ),
    field(
      'From',
      h('input', {
        type: 'date',
        value: filter.after?.slice(0, 10) ?? '',
        onchange: (event: Event) => set({ after: (event.target as HTMLInputElement).value }),
      }),
    ),
    field(
      'To',
      h('input', {
        type: 'date',
        value: filter.before?.slice(0, 10) ?? '',
        onchange: (event: Event) => set({ before: (event.target as HTMLInputElement).value }),
      }),
    ),
    h(
      'div',
      { class: 'field field-actions' },
      iconButton('clear-all', 'Clear all filters', () => onChange(filter.view ? { view: filter.view } : {})),
    ),
  );
}

/** How many filters are set, for the Filters button's badge. */
export function countFilters(filter: PanelFilter): number {
  return (Object.keys(filter) as Array<keyof PanelFilter>).filter(
    (key) => key !== 'view' && !(key === 'scope' && filter.scope === 'all'),
  ).length;
}
