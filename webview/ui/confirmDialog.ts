import { h } from './dom.ts';

/**
 * A modal confirmation; window.confirm() is blocked inside VS Code webviews. The dialog traps
 * focus, Escape cancels, and focus returns to where it was.
 */
export function confirmDialog(title: string, message: string, confirmLabel: string): Promise<boolean> {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    const finish = (answer: boolean): void => {
      dialog.close();
      dialog.remove();
      previous?.focus();
      resolve(answer);
    };
    const cancel = h('button', { type: 'button', class: 'secondary', onclick: () => finish(false) }, 'Cancel');
    const dialog = h(
      'dialog',
      { class: 'confirm-dialog', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-message' },
      h('h2', { id: 'confirm-title' }, title),
      h('p', { id: 'confirm-message' }, message),
      h(
        'div',
        { class: 'dialog-actions' },
        cancel,
        h('button', { type: 'button', class: 'danger', onclick: () => finish(true) }, confirmLabel),
      ),
    );
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish(false);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    // The safe choice gets the focus, so an accidental Enter does not delete.
    cancel.focus();
  });
}
