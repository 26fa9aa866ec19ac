import { h, replaceChildren } from './dom.ts';

const TOAST_MS = 10_000;

/**
 * One message at a time at the bottom of the panel, announced to screen readers. An action
 * (Undo) stays reachable from the keyboard: by Tab, or Ctrl/Cmd+Z while the toast is shown.
 */
export class Toasts {
  readonly element = h('div', { class: 'toast-region', role: 'status', 'aria-live': 'polite' });
  private timer: number | undefined;
  private action: (() => void) | null = null;

  constructor() {
    document.addEventListener('keydown', (event) => {
      const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
      if (this.action && !typing && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        this.runAction();
      }
    });
  }

  show(message: string, kind: 'info' | 'error' = 'info', action?: { label: string; run: () => void }): void {
    window.clearTimeout(this.timer);
    this.action = action?.run ?? null;
    replaceChildren(
      this.element,
      h(
        'div',
        { class: `toast toast-${kind}` },
        h('span', { class: 'toast-text' }, message),
        action ? h('button', { type: 'button', class: 'link-button', onclick: () => this.runAction() }, action.label) : null,
        h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Dismiss message', title: 'Dismiss', onclick: () => this.clear() }, h('span', { class: 'codicon codicon-close', 'aria-hidden': 'true' })),
      ),
    );
    this.timer = window.setTimeout(() => this.clear(), kind === 'error' ? TOAST_MS * 2 : TOAST_MS);
  }

  clear(): void {
    window.clearTimeout(this.timer);
    this.action = null;
    this.element.textContent = '';
  }

  private runAction(): void {
    const action = this.action;
    this.clear();
    action?.();
  }
}
