/**
 * Keyboard helpers shared by the panel's views.
 *
 * Inside VS Code, the webview's outer page listens for keydown on this page's window (bubble phase)
 * and forwards every key to the workbench, which runs its own keybindings on it: Alt+1 opens the
 * first editor, Ctrl+Z runs "undo" (which VS Code turns into document.execCommand('undo') here),
 * Escape closes workbench widgets. A key the panel handles must therefore stop propagating, not
 * only prevent its default action; keys the panel does not handle still reach the workbench, so
 * Ctrl+P, Ctrl+Shift+P and the rest keep working from inside the panel.
 */
export function consume(event: KeyboardEvent): void {
  event.preventDefault();
  event.stopPropagation();
}

/** Text the user types into, where the browser's own editing keys (and undo) apply. */
export function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type))
  );
}

/** Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z and Ctrl+Y: what VS Code treats as undo and redo. */
export function isUndoRedo(event: KeyboardEvent): boolean {
  const key = event.key.toLowerCase();
  return (event.ctrlKey || event.metaKey) && !event.altKey && (key === 'z' || (key === 'y' && !event.shiftKey));
}
