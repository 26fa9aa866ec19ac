import type { PanelNotification } from '../src/shared/panelProtocol.ts';
import type { PanelHost } from './host/panelHost.ts';
import { OwnChanges } from './ownChanges.ts';
import { describeError, type PanelClient } from './panelClient.ts';
import type { PanelContext } from './panelContext.ts';
import { h, icon, replaceChildren } from './ui/dom.ts';
import { consume, isTextField, isUndoRedo } from './ui/keys.ts';
import { Toasts } from './ui/toast.ts';
import { TABS, type Tab, UiStore } from './uiState.ts';
import { ContextTab } from './views/contextTab.ts';
import { MemoriesTab } from './views/memoriesTab.ts';
import { requestFirstRows } from './views/memoryListModel.ts';
import { OverviewTab } from './views/overviewTab.ts';
import { WorkingTab } from './views/workingTab.ts';

/** Visible label, accessible name, codicon. Short labels: four tabs fit one row of a 300 px side bar. */
const TAB_LABELS: Record<Tab, { label: string; name: string; icon: string }> = {
  memories: { label: 'Memories', name: 'Memories', icon: 'database' },
  working: { label: 'Working', name: 'Working', icon: 'pulse' },
  overview: { label: 'Overview', name: 'Overview', icon: 'graph' },
  context: { label: 'Context', name: 'Context preview', icon: 'eye' },
};
const REFRESH_DEBOUNCE_MS = 150;

interface TabView {
  element: HTMLElement;
  start(): Promise<void>;
  refresh(): Promise<void>;
}

/**
 * The panel shell: asks the host for its initial state (the host never pushes first), builds the
 * tabs, and turns change notifications into a debounced refresh of the visible tab.
 */
export class PanelApp {
  private readonly root: HTMLElement;
  private readonly client: PanelClient;
  private readonly ui: UiStore;
  private readonly toasts = new Toasts();
  private readonly ownChanges = new OwnChanges();
  private readonly connection = h('span', { class: 'connection', role: 'status' });
  private views: { memories: MemoriesTab; working: TabView; overview: TabView; context: TabView } | null = null;
  private readonly stale = new Set<Tab>();
  private refreshTimer: number | undefined;
  private focusRequested = false;

  constructor(root: HTMLElement, client: PanelClient, host: PanelHost) {
    this.root = root;
    this.client = client;
    this.ui = new UiStore(host);
    client.onNotification((notification) => this.onNotification(notification));
  }

  async start(): Promise<void> {
    // The first rows are asked for together with the initial state: one round trip, not two.
    const { tab, query, filter, sort } = this.ui.state;
    const firstRows = tab === 'memories' ? requestFirstRows(this.client, { query, filter, sort }) : undefined;
    // Its failure is shown by the list once it starts; here it must not become an unhandled rejection.
    firstRows?.catch(() => undefined);
    let init;
    try {
      init = await this.client.request('panel/ready', {});
    } catch (error) {
      replaceChildren(
        this.root,
        h(
          'div',
          { class: 'error-box', role: 'alert' },
          h('h2', null, 'The memory panel could not start'),
          h('p', null, describeError(error)),
          h('button', { type: 'button', onclick: () => void this.start() }, 'Try again'),
        ),
      );
      return;
    }
    const context: PanelContext = {
      client: this.client,
      ui: this.ui,
      toasts: this.toasts,
      init,
      ownChanges: this.ownChanges,
    };
    this.views = {
      memories: new MemoriesTab(context),
      working: new WorkingTab(context),
      overview: new OverviewTab(context),
      context: new ContextTab(context),
    };
    document.body.dataset.host = init.host;
    const tabButtons = TABS.map((tab, index) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${tab}`,
          'aria-controls': `panel-${tab}`,
          // The name contains the visible label (WCAG "label in name"); the shortcut is in the tooltip.
          'aria-label': TAB_LABELS[tab].name === TAB_LABELS[tab].label ? null : TAB_LABELS[tab].name,
          title: `${TAB_LABELS[tab].name} (Alt+${index + 1})`,
          onclick: () => this.select(tab, true),
          onkeydown: (event: KeyboardEvent) => this.onTabKey(event, tab),
        },
        icon(TAB_LABELS[tab].icon),
        h('span', { class: 'tab-label' }, TAB_LABELS[tab].label),
      ),
    );
    replaceChildren(
      this.root,
      h(
        'header',
        { class: 'panel-header' },
        h('div', { role: 'tablist', 'aria-label': 'Memory panel sections', class: 'tabs' }, tabButtons),
        this.connection,
      ),
      TABS.map((tab) =>
        h(
          'section',
          { role: 'tabpanel', id: `panel-${tab}`, 'aria-labelledby': `tab-${tab}`, class: 'tab-panel', tabindex: '-1' },
          this.views![tab].element,
        ),
      ),
      this.toasts.element,
    );
    document.addEventListener('keydown', (event) => this.onGlobalKey(event));
    if (firstRows) {
      this.views.memories.element.dataset.started = 'true';
      void this.views.memories.start(firstRows);
    }
    this.select(this.ui.state.tab, false);
    // "Show Memory Panel" focuses the webview's window, which leaves focus on the body: move it to
    // what the user came for. The window may have been focused before the panel finished starting.
    window.addEventListener('focus', () => {
      if (!document.activeElement || document.activeElement === document.body) this.focusMain();
    });
    if (this.focusRequested || (document.hasFocus() && document.activeElement === document.body)) this.focusMain();
    this.focusRequested = false;
  }

  /** The list on the Memories tab (its active row, or an opened memory's first action), else the current tab. */
  private focusMain(): void {
    if (!this.views) return;
    const tab = this.ui.state.tab;
    if (tab === 'memories') this.views.memories.focusMain();
    else document.getElementById(`tab-${tab}`)?.focus();
  }

  setConnected(connected: boolean): void {
    replaceChildren(
      this.connection,
      connected
        ? ''
        : h(
            'span',
            { class: 'error-text', title: 'Live updates paused; reconnecting' },
            icon('debug-disconnect'),
            ' reconnecting…',
          ),
    );
  }

  private select(tab: Tab, focus: boolean): void {
    if (!this.views) return;
    this.ui.update({ tab });
    for (const other of TABS) {
      const selected = other === tab;
      const button = document.getElementById(`tab-${other}`)!;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
      document.getElementById(`panel-${other}`)!.hidden = !selected;
    }
    if (focus) document.getElementById(`tab-${tab}`)!.focus();
    const view = this.views[tab];
    if (!view.element.dataset.started) {
      view.element.dataset.started = 'true';
      this.stale.delete(tab);
      void view.start();
    } else if (this.stale.delete(tab)) {
      void view.refresh();
    }
  }

  /** Arrow keys move between tabs (WAI-ARIA tabs pattern). */
  private onTabKey(event: KeyboardEvent, tab: Tab): void {
    const index = TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? TABS[(index + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(index + TABS.length - 1) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
              : null;
    if (next) {
      consume(event);
      this.select(next, true);
    }
  }

  /**
   * Alt+1…4 switch tabs and "/" focuses search from anywhere that is not a text field. Handled keys
   * are consumed: VS Code forwards every keydown that reaches a webview's window to the workbench,
   * where Alt+1…4 would switch editors and Ctrl+Z would run the editor's undo inside this page.
   */
  private onGlobalKey(event: KeyboardEvent): void {
    const typing = isTextField(event.target);
    // By the physical key: on macOS, Option+1 types "¡", so event.key is not the digit.
    const digit = /^Digit([1-4])$/.exec(event.code)?.[1];
    if (event.altKey && !event.ctrlKey && !event.metaKey && digit) {
      consume(event);
      this.select(TABS[Number(digit) - 1], true);
    } else if (event.key === '/' && !typing && this.views) {
      consume(event);
      this.select('memories', false);
      this.views.memories.focusSearch();
    } else if (isUndoRedo(event) && !typing) {
      // Outside a text field nothing here is undone by the browser; forwarded, VS Code's undo would
      // call document.execCommand('undo') in this page and revert the search box to an older query.
      consume(event);
    }
  }

  private onNotification(notification: PanelNotification): void {
    if (notification.type === 'focus-list') {
      // Before the panel has started, the request waits for it (start() focuses when asked).
      if (!this.views) this.focusRequested = true;
      else this.focusMain();
      return;
    }
    if (!this.views) return;
    const affected: Tab[] = notification.type === 'working-changed' ? ['working', 'overview', 'context'] : TABS.slice();
    // A checkpoint promotes working items into memories, so working changes can touch the list too.
    if (notification.type === 'working-changed') affected.push('memories');
    // The list re-reads a change it made itself as soon as the host answers: once, not twice.
    const ownEcho = notification.type === 'memories-changed' && this.ownChanges.consume(notification.memory_ids);
    for (const tab of affected) if (!(ownEcho && tab === 'memories')) this.stale.add(tab);
    window.clearTimeout(this.refreshTimer);
    this.refreshTimer = window.setTimeout(() => {
      const current = this.ui.state.tab;
      if (this.views && this.stale.delete(current)) void this.views[current].refresh();
    }, REFRESH_DEBOUNCE_MS);
  }
}
