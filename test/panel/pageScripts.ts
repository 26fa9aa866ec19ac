/**
 * Code the browser tests run inside the page. The root project type-checks Node code without the
 * DOM library, so in-page code travels as JavaScript source, kept here in one place.
 */

/** Sets VS Code theme variables on the root and the theme class on the body, as VS Code does. */
export function applyThemeScript(variables: Record<string, string>, bodyClass: string): string {
  // CSSOM writes are allowed by the page's CSP; an injected <style> element would not be.
  return `(() => {
    const variables = ${JSON.stringify(variables)};
    for (const [name, value] of Object.entries(variables)) document.documentElement.style.setProperty(name, value);
    document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
    document.body.classList.add(${JSON.stringify(bodyClass)});
  })()`;
}

export function activeElementAttribute(name: string): string {
  return `document.activeElement?.getAttribute(${JSON.stringify(name)}) ?? null`;
}

export const ACTIVE_ELEMENT_TEXT = `document.activeElement?.textContent?.trim() ?? null`;

/** Visible controls with no accessible name (aria-label, aria-labelledby, a wrapping label or text). */
export const UNLABELLED_CONTROLS = `[...document.querySelectorAll('button, input, select, textarea, [role="listbox"], [role="tab"]')]
  .filter((element) => element.offsetParent !== null)
  .filter((element) => !(element.getAttribute('aria-label') || element.getAttribute('aria-labelledby') || element.closest('label') || element.textContent.trim()))
  .map((element) => element.outerHTML.slice(0, 80))`;

/**
 * Stands in for VS Code's webview host page, which listens for keydown on the panel's window and
 * forwards each key to the workbench (microsoft/vscode, webview/browser/pre/index.html,
 * handleInnerKeydown). The workbench's Undo on a focused webview calls webview.undo(), which runs
 * document.execCommand('undo') inside the panel: so does this stand-in. Forwarded keys are recorded.
 */
export const INSTALL_KEY_FORWARDER = `(() => {
  window.forwardedKeys = [];
  window.addEventListener('keydown', (event) => {
    const key = [event.ctrlKey ? 'Control+' : '', event.altKey ? 'Alt+' : '', event.shiftKey ? 'Shift+' : '', event.key].join('');
    window.forwardedKeys.push(key);
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      document.execCommand('undo');
    }
  });
})()`;

export const FORWARDED_KEYS = 'window.forwardedKeys';

/** The panel's parts that must fit its width, in the browser suite and in the real workbench's side bar. */
export const PANEL_LAYOUT_SELECTORS = [
  'html',
  'body',
  '[role="tablist"]',
  '[role="tab"]',
  '.search-row',
  '.search-input',
  '.toolbar',
  '.filter-bar',
  '.filter-bar .field',
  '.list-status',
  '.memory-row:not(.loading-row)',
];

/**
 * Elements wider than the space they have at the current viewport: their content scrolls
 * (scrollWidth > clientWidth) or they stick out of the window. Text cut with an ellipsis inside a
 * row is by design (the row itself must not overflow), so rows and containers are measured, not
 * the ellipsized spans inside them.
 */
export function overflowingScript(selectors: string[]): string {
  return `(() => {
    const selectors = ${JSON.stringify(selectors)};
    const found = [];
    const width = document.documentElement.clientWidth;
    for (const selector of selectors) {
      const elements = [...document.querySelectorAll(selector)].filter((element) => element.getClientRects().length > 0);
      if (elements.length === 0) found.push(selector + ': not shown');
      for (const element of elements) {
        const box = element.getBoundingClientRect();
        if (element.scrollWidth > element.clientWidth) found.push(selector + ': scrollWidth ' + element.scrollWidth + ' > clientWidth ' + element.clientWidth);
        if (box.right > width + 0.5 || box.left < -0.5) found.push(selector + ': spans ' + Math.round(box.left) + '..' + Math.round(box.right) + ' of ' + width);
      }
    }
    return found;
  })()`;
}

/** Distinct top offsets of the tabs: 1 when they sit on one row. */
export const TAB_ROWS = `new Set([...document.querySelectorAll('[role="tab"]')].map((tab) => Math.round(tab.getBoundingClientRect().top))).size`;

/** Leaves focus on the body and gives the window focus, as VS Code does on "Show Memory Panel". */
export const FOCUS_WINDOW = `(() => { document.activeElement?.blur(); window.dispatchEvent(new FocusEvent('focus')); })()`;

/**
 * Row badges (category, layer, code status) narrower than their own text: at side-bar width they
 * must keep their width and let the row's facts ("imp 0.60 · 0× · 2 min ago") give way. Returns
 * the clipped badges, and how many badges of each kind were measured so a test can tell "none
 * clipped" from "none shown".
 */
export const CLIPPED_BADGES = `(() => {
  const clipped = [];
  const measured = {};
  for (const badge of document.querySelectorAll('.memory-row:not(.loading-row) .row-meta > .badge')) {
    if (badge.getClientRects().length === 0) continue;
    const kind = [...badge.classList].find((name) => name === 'code' || name === 'layer' || name.startsWith('category-')) ?? 'other';
    measured[kind] = (measured[kind] ?? 0) + 1;
    const range = document.createRange();
    range.selectNodeContents(badge);
    const text = range.getBoundingClientRect().width;
    if (badge.scrollWidth > badge.clientWidth || text > badge.clientWidth + 0.5)
      clipped.push(badge.textContent + ': ' + Math.round(badge.clientWidth) + ' px for ' + Math.round(text) + ' px of text');
  }
  return { clipped, measured };
})()`;
