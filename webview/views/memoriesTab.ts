import type {
  MemoryDetail,
  PanelFilter,
  SearchKeysParams,
  SearchSort,
  EditorAction,
  UpdateParams,
} from '../../src/shared/panelProtocol.ts';
import { describeError } from '../panelClient.ts';
import type { PanelContext } from '../panelContext.ts';
import { h, icon, iconButton, replaceChildren } from '../ui/dom.ts';
import { consume, isTextField } from '../ui/keys.ts';
import { VirtualList } from '../ui/virtualList.ts';
import { countFilters, renderFilterBar } from './filterBar.ts';
import { renderMemoryDetail } from './memoryDetail.ts';
import { renderMemoryEditor } from './memoryEditor.ts';
import { MemoryActions } from './memoryActions.ts';
import { type FirstRows, MemoryListModel } from './memoryListModel.ts';
import { renderMemoryRow } from './memoryRow.ts';
import { userBadge } from './identityLine.ts';
import { renderEmptyState } from './emptyState.ts';

const ROW_HEIGHT = 48;
const SEARCH_DEBOUNCE_MS = 200;
const SORT_LABELS: Array<[SearchSort, string]> = [
  ['relevance', 'Relevance'],
  ['recency', 'Recently used'],
  ['created', 'Newest'],
  ['importance', 'Importance'],
  ['access_count', 'Access count'],
];

/**
 * Browse, search and curate long-term memories: toolbar, filters, a virtual list that loads in
 * pages, bulk actions on a selection, and the opened memory beside (or, when narrow, over) the list.
 */
export class MemoriesTab {
  readonly element = h('div', { class: 'memories-tab' });
  private readonly context: PanelContext;
  private readonly model: MemoryListModel;
  private readonly actions: MemoryActions;
  private readonly list: VirtualList;
  private readonly selection = new Set<string>();
  private readonly statusText = h('span', { class: 'status-text', role: 'status' });
  private readonly status: HTMLElement;
  private readonly bulkBar = h('div', { class: 'bulk-bar', role: 'toolbar', 'aria-label': 'Selected memories' });
  private readonly filterHost = h('div', { class: 'filter-host', id: 'filter-host' });
  private readonly detailHost = h('div', { class: 'detail-host' });
  private readonly emptyState: HTMLElement;
  private readonly filterButton: HTMLButtonElement;
  private readonly trashButton: HTMLButtonElement;
  private readonly searchInput: HTMLInputElement;
  private readonly sortSelect: HTMLSelectElement;
  private detail: MemoryDetail | null = null;
  private detailError: string | null = null;
  private editing = false;
  private searchTimer: number | undefined;

  constructor(context: PanelContext) {
    this.context = context;
    const state = context.ui.state;
    this.model = new MemoryListModel(context.client, () => this.onModelChange());
    this.actions = new MemoryActions(context, {
      removed: (ids) => this.afterRemoval(ids),
      changed: () => void this.refresh(),
    });
    this.list = new VirtualList({
      label: 'Memories',
      rowHeight: ROW_HEIGHT,
      renderRow: (index, active) => this.renderRow(index, active),
      onRange: (start, end) => this.model.ensureRange(start, end),
      onActivate: (index) => {
        const row = this.model.row(index);
        if (row) void this.open(row.memory_id, true);
      },
      onKey: (event, index) => this.onListKey(event, index),
    });
    this.emptyState = renderEmptyState(context.init.editor_actions, (action) => void this.runEditorAction(action));
    this.emptyState.hidden = true;
    this.searchInput = h('input', {
      type: 'search',
      class: 'search-input',
      placeholder: 'Search memories',
      title: 'Search with the same hybrid recall the agent uses',
      'aria-label': 'Search memories',
      value: state.query,
      oninput: () => {
        window.clearTimeout(this.searchTimer);
        this.searchTimer = window.setTimeout(() => this.apply({ query: this.searchInput.value }), SEARCH_DEBOUNCE_MS);
      },
      onkeydown: (event: KeyboardEvent) => {
        if (event.key === 'Enter') {
          window.clearTimeout(this.searchTimer);
          this.apply({ query: this.searchInput.value });
        } else if (event.key === 'ArrowDown') {
          consume(event);
          this.list.element.focus();
        }
      },
    });
    this.sortSelect = h('select', {
      'aria-label': 'Sort by',
      // Without a search "Recently used" is the default order, kept as relevance for the next search.
      onchange: () => {
        const chosen = this.sortSelect.value as SearchSort;
        const searching = this.context.ui.state.query.trim() !== '';
        this.apply({ sort: !searching && chosen === 'recency' ? 'relevance' : chosen });
      },
    });
    this.renderSortOptions();
    // One disclosure for all nine filters: at side-bar width they would otherwise take the whole view.
    this.filterButton = h('button', {
      type: 'button',
      class: 'disclosure',
      'aria-expanded': String(state.filtersOpen),
      'aria-controls': 'filter-host',
      title: 'Show or hide the filters',
      onclick: () => this.toggleFilters(),
    });
    this.trashButton = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        'aria-pressed': String(state.filter.view === 'trash'),
        'aria-label': 'Show trash (forgotten memories)',
        title: 'Trash',
        onclick: () => this.toggleTrash(),
      },
      icon('trash'),
    );
    this.status = h(
      'div',
      { class: 'list-status' },
      this.statusText,
      // A readable name (the account), not the generated id; the id, where it comes from and the
      // store are in the tooltip and the Overview.
      userBadge(context.init),
    );
    this.element.append(
      // Search gets its own full-width row; the rest of the toolbar goes on the row below it.
      h('div', { class: 'search-row', role: 'search' }, this.searchInput),
      h(
        'div',
        { class: 'toolbar' },
        this.filterButton,
        this.sortSelect,
        h('span', { class: 'spacer' }),
        this.trashButton,
        iconButton('refresh', 'Refresh', () => void this.refresh()),
      ),
      this.filterHost,
      this.status,
      this.bulkBar,
      h(
        'div',
        { class: 'memories-body' },
        h('div', { class: 'list-host' }, this.emptyState, this.list.element),
        this.detailHost,
      ),
    );
    // On the document, not the tab: after a removal focus may rest on the body. Escape first clears
    // a selection, then closes the opened memory; in a text field it stays the field's own.
    document.addEventListener('keydown', (event) => {
      if (
        event.key !== 'Escape' ||
        this.context.ui.state.tab !== 'memories' ||
        this.editing ||
        isTextField(event.target) ||
        document.querySelector('dialog[open]')
      )
        return;
      if (this.selection.size > 0) {
        consume(event);
        this.clearSelection();
      } else if (this.context.ui.state.openId) {
        consume(event);
        this.closeDetail();
      }
    });
    this.renderFilters();
    this.renderBulkBar();
  }

  async start(prefetched?: Promise<FirstRows>): Promise<void> {
    await this.reset(prefetched);
    if (this.context.ui.state.openId) await this.open(this.context.ui.state.openId, false);
  }

  /** Called on change notifications: re-read the visible page and the opened memory. */
  async refresh(): Promise<void> {
    const firstVisible = Math.floor(this.list.element.scrollTop / ROW_HEIGHT);
    await this.model.reload(firstVisible);
    const openId = this.context.ui.state.openId;
    if (openId && !this.editing) await this.loadDetail(openId);
  }

  focusSearch(): void {
    this.searchInput.focus();
  }

  /** Where "Show Memory Panel" lands: the opened memory's first action, else the list on its active (or first) row. */
  focusMain(): void {
    const openAction = this.element.classList.contains('detail-open')
      ? this.detailHost.querySelector<HTMLElement>('.detail-toolbar button')
      : null;
    if (openAction) return openAction.focus();
    this.list.element.focus();
  }

  private apply(patch: { query?: string; filter?: PanelFilter; sort?: SearchSort }): void {
    this.context.ui.update(patch);
    if (patch.query !== undefined) this.renderSortOptions();
    this.selection.clear();
    this.renderBulkBar();
    void this.reset();
  }

  /**
   * "Relevance" orders search results only: without a search the list is browsed, and the box
   * names the order it really has ("Recently used") instead of a relevance there is none of.
   */
  private renderSortOptions(): void {
    const { query, sort } = this.context.ui.state;
    const searching = query.trim() !== '';
    const shown = !searching && sort === 'relevance' ? 'recency' : sort;
    replaceChildren(
      this.sortSelect,
      SORT_LABELS.filter(([value]) => searching || value !== 'relevance').map(([value, label]) =>
        h('option', { value, selected: value === shown }, label),
      ),
    );
    this.sortSelect.value = shown;
    this.sortSelect.title = searching
      ? 'Order of the search results'
      : 'Order of the list; a search adds Relevance (the order the agent gets)';
  }

  private async reset(prefetched?: Promise<FirstRows>): Promise<void> {
    const { query, filter, sort } = this.context.ui.state;
    this.list.resetScroll();
    await this.model.reset({ query, filter, sort }, prefetched);
  }

  private onModelChange(): void {
    this.list.setCount(this.model.total);
    const { model } = this;
    const trash = this.context.ui.state.filter.view === 'trash';
    const nothingYet =
      !model.error &&
      !model.loading &&
      model.mode === 'list' &&
      model.total === 0 &&
      !trash &&
      countFilters(this.context.ui.state.filter) === 0;
    this.emptyState.hidden = !nothingYet;
    this.list.element.hidden = nothingYet;
    if (model.error) {
      replaceChildren(
        this.statusText,
        h('span', { class: 'error-text' }, icon('error'), ` ${model.error} `),
        h('button', { type: 'button', class: 'link-button', onclick: () => void this.reset() }, 'Retry'),
      );
    } else if (model.loading && model.total === 0) {
      replaceChildren(
        this.statusText,
        h('span', { class: 'loading' }, icon('loading codicon-modifier-spin'), ' Loading…'),
      );
    } else if (model.mode === 'search') {
      replaceChildren(
        this.statusText,
        `${model.total} result${model.total === 1 ? '' : 's'}${model.elapsedMs !== null ? ` in ${model.elapsedMs} ms` : ''} · ${model.breakdown?.mode ?? ''}`,
      );
    } else if (model.total === 0) {
      replaceChildren(
        this.statusText,
        trash
          ? 'The trash is empty.'
          : countFilters(this.context.ui.state.filter) > 0
            ? 'No memories match these filters.'
            : 'No memories yet.',
      );
    } else {
      replaceChildren(
        this.statusText,
        `${model.total.toLocaleString()} ${trash ? 'forgotten ' : ''}memor${model.total === 1 ? 'y' : 'ies'}`,
      );
    }
  }

  private renderRow(index: number, active: boolean): HTMLElement {
    const row = this.model.row(index);
    const state = {
      active,
      open: row !== undefined && this.context.ui.state.openId === row.memory_id,
      selected: row !== undefined && this.selection.has(row.memory_id),
    };
    return renderMemoryRow(row, state, {
      toggleSelected: (memoryId) => this.toggleSelected(memoryId),
      setPinned: (memoryId, pinned) => void this.actions.setPinned(memoryId, pinned),
    });
  }

  private onListKey(event: KeyboardEvent, index: number): void {
    const row = this.model.row(index);
    if (!row) return;
    const trash = this.context.ui.state.filter.view === 'trash';
    // The shared project layer is read-only here (changed through its files or an agent): no pin, forget or edit keys.
    const shared = this.context.ui.state.filter.scope === 'shared';
    if (shared && ['p', 'e', 'a', 'A', 'Delete', 'Backspace', ' '].includes(event.key)) return;
    if (event.key === ' ') {
      consume(event);
      this.toggleSelected(row.memory_id);
    } else if (event.key.toLowerCase() === 'a' && (event.ctrlKey || event.metaKey)) {
      consume(event);
      for (const loaded of this.model.loadedRows()) this.selection.add(loaded.memory_id);
      this.renderBulkBar();
      this.list.render();
    } else if (event.key === 'p' && !trash) {
      consume(event);
      void this.actions.setPinned(row.memory_id, !row.pinned);
    } else if (event.key === 'Delete' && event.shiftKey) {
      consume(event);
      void this.actions.purge(this.selection.size > 0 ? [...this.selection] : [row.memory_id]);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      consume(event);
      const ids = this.selection.size > 0 ? [...this.selection] : [row.memory_id];
      void (trash ? this.actions.restore(ids) : this.actions.forget(ids));
    } else if (event.key === 'e' && !trash) {
      consume(event);
      void this.open(row.memory_id, false).then(() => this.startEdit());
    }
  }

  private toggleSelected(memoryId: string): void {
    if (this.selection.has(memoryId)) this.selection.delete(memoryId);
    else this.selection.add(memoryId);
    this.renderBulkBar();
    this.list.render();
  }

  private clearSelection(): void {
    this.selection.clear();
    this.renderBulkBar();
    this.list.render();
  }

  private renderBulkBar(): void {
    const count = this.selection.size;
    this.bulkBar.hidden = count === 0;
    if (count === 0) return this.bulkBar.replaceChildren();
    const ids = (): string[] => [...this.selection];
    const trash = this.context.ui.state.filter.view === 'trash';
    replaceChildren(
      this.bulkBar,
      h('span', null, `${count} selected`),
      trash
        ? [
            h(
              'button',
              { type: 'button', onclick: () => void this.actions.restore(ids()) },
              icon('discard'),
              ' Restore',
            ),
            h(
              'button',
              { type: 'button', class: 'danger', onclick: () => void this.actions.purge(ids()) },
              icon('trash'),
              ' Delete permanently',
            ),
          ]
        : h(
            'button',
            { type: 'button', onclick: () => void this.actions.forget(ids()) },
            icon('trash'),
            ` Forget ${count}`,
          ),
      h(
        'button',
        { type: 'button', class: 'secondary', title: 'Clear selection (Escape)', onclick: () => this.clearSelection() },
        'Clear selection',
      ),
    );
  }

  private renderFilters(): void {
    const { filtersOpen, filter } = this.context.ui.state;
    const count = countFilters(filter);
    this.filterButton.replaceChildren(
      icon(filtersOpen ? 'chevron-down' : 'chevron-right'),
      'Filters',
      count > 0 ? h('span', { class: 'count-badge', 'aria-label': `${count} active` }, String(count)) : '',
    );
    this.filterButton.setAttribute('aria-expanded', String(filtersOpen));
    this.trashButton.setAttribute('aria-pressed', String(filter.view === 'trash'));
    this.filterHost.hidden = !filtersOpen;
    this.filterHost.replaceChildren(
      filtersOpen ? renderFilterBar(this.context.init, filter, (next) => this.setFilter(next)) : '',
    );
  }

  private setFilter(filter: PanelFilter): void {
    this.apply({ filter });
    this.renderFilters();
  }

  private toggleFilters(): void {
    this.context.ui.update({ filtersOpen: !this.context.ui.state.filtersOpen });
    this.renderFilters();
  }

  private toggleTrash(): void {
    const { filter } = this.context.ui.state;
    const trash = filter.view !== 'trash';
    // Search covers live memories only, so entering the trash also clears the search box.
    if (trash) this.searchInput.value = '';
    this.context.ui.update({ openId: null, ...(trash ? { query: '' } : {}) });
    this.renderDetail();
    this.setFilter({ ...filter, view: trash ? 'trash' : 'live' });
  }

  private async open(memoryId: string, focusDetail: boolean): Promise<void> {
    this.editing = false;
    this.context.ui.update({ openId: memoryId });
    this.element.classList.add('detail-open');
    this.list.render();
    await this.loadDetail(memoryId);
    if (focusDetail) this.detailHost.querySelector<HTMLElement>('.detail-toolbar button')?.focus();
  }

  private async loadDetail(memoryId: string): Promise<void> {
    try {
      this.detail = await this.context.client.request('memory/get', { memory_id: memoryId });
      this.detailError = null;
    } catch (error) {
      this.detail = null;
      this.detailError = describeError(error);
    }
    if (this.context.ui.state.openId === memoryId) this.renderDetail();
  }

  private closeDetail(): void {
    this.context.ui.update({ openId: null });
    this.detail = null;
    this.editing = false;
    this.element.classList.remove('detail-open');
    this.renderDetail();
    this.list.render();
    this.list.element.focus();
  }

  private renderDetail(): void {
    const openId = this.context.ui.state.openId;
    this.element.classList.toggle('detail-open', openId !== null);
    if (!openId) return this.detailHost.replaceChildren();
    if (this.detailError) {
      return replaceChildren(
        this.detailHost,
        h(
          'div',
          { class: 'error-box', role: 'alert' },
          this.detailError,
          ' ',
          h('button', { type: 'button', onclick: () => this.closeDetail() }, 'Close'),
        ),
      );
    }
    if (!this.detail || this.detail.memory.memory_id !== openId)
      return replaceChildren(this.detailHost, h('p', { class: 'loading' }, 'Loading memory…'));
    const detail = this.detail;
    const memory = detail.memory;
    if (this.editing) {
      return replaceChildren(
        this.detailHost,
        renderMemoryEditor(
          this.context.init,
          memory,
          (changes) => void this.save(changes),
          () => {
            this.editing = false;
            this.renderDetail();
          },
        ),
      );
    }
    const recalled = this.model.loadedRows().find((row) => row.memory_id === memory.memory_id)?.recalled;
    // A refresh rebuilds the toolbar; keyboard users keep their place on the same action.
    const focusedAction = this.detailHost.contains(document.activeElement)
      ? document.activeElement?.getAttribute('data-action')
      : null;
    // A refresh (a change pushed by the host) must not eat a search key being typed.
    const keyInput = (): HTMLInputElement | null => this.detailHost.querySelector<HTMLInputElement>('.add-key input');
    const sameMemory =
      this.detailHost.querySelector('.memory-detail')?.getAttribute('data-memory-id') === memory.memory_id;
    const keyDraft = sameMemory ? (keyInput()?.value ?? '') : '';
    const typingKey = sameMemory && document.activeElement === keyInput();
    replaceChildren(
      this.detailHost,
      renderMemoryDetail(detail, recalled, this.context.init.promotion_targets, {
        togglePin: () => void this.actions.setPinned(memory.memory_id, !memory.pinned),
        edit: () => this.startEdit(),
        forget: () => void this.actions.forget([memory.memory_id]),
        restore: () => void this.actions.restore([memory.memory_id]),
        purge: () => void this.actions.purge([memory.memory_id]),
        close: () => this.closeDetail(),
        open: (memoryId) => void this.open(memoryId, true),
        filterEntity: (entity) => this.addToFilter('entities', entity),
        filterTag: (tag) => this.addToFilter('tags', tag),
        promote: (target) => void this.actions.promote(memory.memory_id, target),
        ...(this.context.init.editor_actions.includes('go_to_code')
          ? { goToCode: () => void this.runEditorAction('go_to_code', memory.memory_id) }
          : {}),
        removeKey: (key) => void this.editSearchKeys({ memory_id: memory.memory_id, remove: [key] }),
        addKey: (key) => void this.editSearchKeys({ memory_id: memory.memory_id, add: [key] }, true),
      }),
    );
    if (focusedAction) this.detailHost.querySelector<HTMLElement>(`[data-action="${focusedAction}"]`)?.focus();
    const input = keyInput();
    if (input && keyDraft !== '') input.value = keyDraft;
    if (input && typingKey) input.focus();
  }

  private async runEditorAction(action: EditorAction, memoryId?: string): Promise<void> {
    try {
      await this.context.client.request('editor/run', { action, ...(memoryId ? { memory_id: memoryId } : {}) });
    } catch (error) {
      this.context.toasts.show(describeError(error), 'error');
    }
  }

  private async editSearchKeys(params: SearchKeysParams, clearDraft = false): Promise<void> {
    const detail = await this.actions.editSearchKeys(params);
    if (detail && this.detail?.memory.memory_id === detail.memory.memory_id) {
      const input = this.detailHost.querySelector<HTMLInputElement>('.add-key input');
      if (clearDraft && input) input.value = '';
      this.detail = detail;
      this.renderDetail();
    }
  }

  private startEdit(): void {
    if (!this.detail) return;
    this.editing = true;
    this.renderDetail();
  }

  private addToFilter(field: 'entities' | 'tags', value: string): void {
    const filter = this.context.ui.state.filter;
    const values = [...new Set([...(filter[field] ?? []), value])];
    this.context.ui.update({ filtersOpen: true });
    this.setFilter({ ...filter, [field]: values });
    this.context.toasts.announce(`Showing memories with ${field === 'entities' ? 'entity' : 'tag'} "${value}".`);
  }

  private async save(changes: UpdateParams): Promise<void> {
    // Only the id and version: nothing changed, so there is nothing to send.
    const saved = Object.keys(changes).length === 2 || (await this.actions.update(changes));
    if (!saved) return;
    this.editing = false;
    this.renderDetail();
    this.detailHost.querySelector<HTMLElement>('[data-action="edit"]')?.focus();
  }

  /** Drops removed memories from the selection and closes one that was open, then refreshes. */
  private afterRemoval(ids: string[]): void {
    for (const id of ids) this.selection.delete(id);
    this.renderBulkBar();
    const openId = this.context.ui.state.openId;
    if (openId && ids.includes(openId)) this.closeDetail();
    void this.refresh();
  }
}
