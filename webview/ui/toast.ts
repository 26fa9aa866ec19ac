import { h, replaceChildren } from './dom.ts';
import { consume, isTextField } from './keys.ts';

const TOAST_MS = 10_000;

/**
 * What the panel tells the user after an action. Most actions show their result in place (the pin
 * icon, the saved text), so they are only announced to screen readers (`announce`); a visible
 * message appears when it offers an action (Undo) or reports an error or a result shown nowhere
 * else (`show`). An action stays reachable from the keyboard: by Tab, or Ctrl/Cmd+Z while shown.
 */
export class Toasts {
  readonly element: HTMLElement;
  private readonly region = h('div', { class: 'toast-region', role: 'status', 'aria-live': 'polite' });
  private readonly announcer = h('div', {
    class: 'visually-hidden',
    role: 'status',
    'aria-live': 'polite',
    'data-testid': 'announcer',
  });
  private timer: number | undefined;
  private action: (() => void) | null = null;

  constructor() {
    this.element = h('div', { class: 'messages' }, this.region, this.announcer);
    document.addEventListener('keydown', (event) => {
      if (
        this.action &&
        !isTextField(event.target) &&
        (event.ctrlKey || event.metaKey) &&
        !event.shiftKey &&
        event.key.toLowerCase() === 'z'
      ) {
        // Consumed, not only prevented: forwarded to VS Code, Ctrl+Z would also undo typing in the search box.
        consume(event);
        this.runAction();
      }
    });
  }

  show(message: string, kind: 'info' | 'error' = 'info', action?: { label: string; run: () => void }): void {
    window.clearTimeout(this.timer);
    this.action = action?.run ?? null;
    replaceChildren(
      this.region,
      h(
        'div',
        { class: `toast toast-${kind}` },
        h('span', { class: 'toast-text' }, message),
        action
          ? h('button', { type: 'button', class: 'link-button', onclick: () => this.runAction() }, action.label)
          : null,
        h(
          'button',
          {
            type: 'button',
            class: 'icon-button',
            'aria-label': 'Dismiss message',
            title: 'Dismiss',
            onclick: () => this.clear(),
          },
          h('span', { class: 'codicon codicon-close', 'aria-hidden': 'true' }),
        ),
      ),
    );
    this.timer = window.setTimeout(() => this.clear(), kind === 'error' ? TOAST_MS * 2 : TOAST_MS);
  }

  /** Tells screen readers what happened, without a visible message: the change is visible in place. */
  announce(message: string): void {
    this.announcer.textContent = message;
  }

  clear(): void {
    window.clearTimeout(this.timer);
    this.action = null;
    this.region.textContent = '';
  }

  private runAction(): void {
    const action = this.action;
    this.clear();
    // What was announced before is stale once an action starts: its own announcement, when the host
    // answers, is then a change a screen reader reads even if the words are the same as the last
    // ("Restored 1 memory." after an earlier restore), and nobody reads the old one as its result.
    this.announcer.textContent = '';
    action?.();
  }
}
