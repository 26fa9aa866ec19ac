import type { WorkingSessionInfo, WorkingView } from '../../src/shared/panelProtocol.ts';
import { describeError } from '../panelClient.ts';
import type { PanelContext } from '../panelContext.ts';
import { confirmDialog } from '../ui/confirmDialog.ts';
import { formatClock, h, icon, iconButton, relativeTime, replaceChildren } from '../ui/dom.ts';

/** The session's working memory in order, with its token budget and per-item pin/evict. */
export class WorkingTab {
  readonly element = h('div', { class: 'working-tab' });
  private readonly context: PanelContext;
  private view: WorkingView | null = null;
  private error: string | null = null;

  constructor(context: PanelContext) {
    this.context = context;
  }

  async start(): Promise<void> {
    replaceChildren(this.element, h('p', { class: 'loading' }, 'Loading working memory…'));
    await this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      this.view = await this.context.client.request('working/state', {});
      this.error = null;
    } catch (error) {
      this.error = describeError(error);
    }
    this.render();
  }

  private render(): void {
    if (this.error) {
      return replaceChildren(
        this.element,
        h(
          'div',
          { class: 'error-box', role: 'alert' },
          this.error,
          ' ',
          h('button', { type: 'button', onclick: () => void this.refresh() }, 'Retry'),
        ),
      );
    }
    const state = this.view?.state;
    if (!state) {
      return replaceChildren(
        this.element,
        h(
          'p',
          { class: 'empty' },
          'No working-memory session yet. It starts with the first agent call or editor capture.',
        ),
      );
    }
    const focused = document.activeElement?.getAttribute('data-focus-key');
    const percent = state.max_tokens > 0 ? Math.min(100, (state.total_tokens / state.max_tokens) * 100) : 0;
    const bar = h('div', {
      class: 'budget-bar',
      role: 'meter',
      'aria-valuemin': '0',
      'aria-valuemax': String(state.max_tokens),
      'aria-valuenow': String(state.total_tokens),
      'aria-label': 'Token budget used',
    });
    const fill = h('div', { class: `budget-fill${percent > 90 ? ' high' : ''}` });
    fill.style.width = `${percent}%`;
    bar.append(fill);
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'working-header' },
        this.view?.session ? sessionLine(this.view.session, state.session_id) : null,
        h(
          'div',
          null,
          h('strong', null, `${state.total_tokens.toLocaleString()} of ${state.max_tokens.toLocaleString()} tokens`),
          h('span', { class: 'muted' }, ` · ${state.item_count} items · ${state.eviction_policy} eviction`),
        ),
        bar,
        h(
          'div',
          { class: 'toolbar', role: 'toolbar', 'aria-label': 'Working memory actions' },
          h(
            'button',
            { type: 'button', 'data-focus-key': 'checkpoint', onclick: () => void this.checkpoint() },
            icon('save'),
            ' Checkpoint now',
          ),
          h(
            'button',
            { type: 'button', class: 'secondary', 'data-focus-key': 'clear', onclick: () => void this.clear() },
            icon('clear-all'),
            ' Clear',
          ),
        ),
      ),
      state.items.length === 0
        ? h('p', { class: 'empty' }, 'Working memory is empty.')
        : h(
            'ol',
            { class: 'working-items', 'aria-label': 'Working memory items, oldest first' },
            state.items.map((item) =>
              h(
                'li',
                { class: `working-item${item.pinned ? ' pinned' : ''}` },
                h(
                  'div',
                  { class: 'row-meta' },
                  item.pinned ? h('span', { class: 'badge pinned' }, icon('pinned'), ' pinned') : null,
                  h('span', { class: 'badge' }, item.content_type),
                  h('span', null, `${item.token_count} tokens`),
                  h('span', { class: 'muted' }, `#${item.sequence_num}`),
                  h('span', { class: 'spacer' }),
                  iconButton(
                    item.pinned ? 'pinned' : 'pin',
                    item.pinned ? `Unpin item ${item.sequence_num}` : `Pin item ${item.sequence_num}`,
                    () => void this.pin(item.item_id, !item.pinned),
                    {
                      'data-focus-key': `pin-${item.item_id}`,
                    },
                  ),
                  iconButton('close', `Evict item ${item.sequence_num}`, () => void this.evict(item.item_id), {
                    'data-focus-key': `evict-${item.item_id}`,
                  }),
                ),
                h('pre', { class: 'working-content' }, item.content),
              ),
            ),
          ),
    );
    // Re-rendering replaces the buttons; keep keyboard users where they were.
    if (focused) this.element.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
  }

  private async act(action: () => Promise<WorkingView & { message?: string }>, success?: string): Promise<void> {
    try {
      const result = await action();
      this.view = result;
      this.render();
      // Checkpoint and clear report what they saved (shown nowhere else); pin and evict show in the list.
      if (result.message) this.context.toasts.show(result.message);
      else if (success) this.context.toasts.announce(success);
    } catch (error) {
      this.context.toasts.show(describeError(error), 'error');
    }
  }

  private pin(itemId: string, pinned: boolean): Promise<void> {
    return this.act(
      () => this.context.client.request('working/pin', { item_id: itemId, pinned }),
      pinned ? 'Item pinned: it is never evicted.' : 'Item unpinned.',
    );
  }

  private evict(itemId: string): Promise<void> {
    return this.act(
      () => this.context.client.request('working/evict', { item_id: itemId }),
      'Item evicted (saved to long-term memory when worth keeping).',
    );
  }

  private checkpoint(): Promise<void> {
    return this.act(() => this.context.client.request('working/checkpoint', {}));
  }

  private async clear(): Promise<void> {
    if (
      !(await confirmDialog(
        'Clear working memory?',
        'Items worth keeping are saved to long-term memory first; the rest are removed from this session.',
        'Clear',
      ))
    )
      return;
    await this.act(() => this.context.client.request('working/clear', {}));
  }
}

/**
 * When the session started and where it came from: "Session started 14:02 · continued after
 * reload". A reload keeps the window's session (and what it captured) when the window comes back
 * within the limit; the tooltip says so, with the session id for support.
 */
function sessionLine(session: WorkingSessionInfo, sessionId: string): HTMLElement {
  const limit = session.reload_limit_ms !== null ? ` within ${Math.round(session.reload_limit_ms / 60_000)} min` : '';
  const [origin, explanation] =
    session.origin === 'reload'
      ? [
          'continued after reload',
          `This window was reloaded and kept its session: what it captured before is still here. A reloaded window that comes back${limit} continues its session.`,
        ]
      : session.origin === 'window'
        ? [
            'this window',
            `Started with this window. Reloading the window keeps it, when the window comes back${limit}.`,
          ]
        : [
            `last active ${relativeTime(session.last_activity)}`,
            'Outside the editor the panel shows your most recently active working-memory session.',
          ];
  return h(
    'div',
    { class: 'session-line', title: `${explanation}\nSession ${sessionId}` },
    icon(session.origin === 'reload' ? 'history' : 'clock'),
    h('span', null, ` Session started ${formatClock(session.started_at)}`),
    h('span', { class: 'muted' }, ` · ${origin}`),
  );
}
