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
