import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { waitFor } from './mcpProbe.ts';

/** Small helpers that drive the real workbench the way a person would: palette, quick input, notifications. */
export class Workbench {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /**
   * Opens the workbench at `url` and waits until it is ready. Navigation waits only for the page to
   * commit: the browser's load event (every script and font of the workbench) took past
   * playwright's 30 s navigation default at load 20, while the workbench itself was on its way;
   * waitReady is the state the tests need, with its own bounds.
   */
  async open(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: 'commit' });
    await this.waitReady();
  }

  async waitReady(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    await this.page.locator('.statusbar').waitFor({ timeout: 60_000 });
  }

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Runs a command from the command palette by its full title, e.g. "Memory: Remember…". */
  /**
   * Runs a command from the palette. `before` puts the window in the state the command needs (a
   * selection, a focused view) before each attempt: dismissing a palette with Escape in the editor
   * also drops its selection, so a retry must make it again.
   */
  async runCommand(title: string, options: { before?: () => Promise<void> } = {}): Promise<void> {
    const input = this.quickInput.locator('input.input');
    // A closing quick input can swallow the first F1: retry a few times before failing.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.dismissQuickInput();
        await options.before?.();
        await this.page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(`>${title}`, { timeout: 5_000 });
        const row = this.quickInput
          .locator('.monaco-list-row', { has: this.page.locator('.label-name', { hasText: exactly(title) }) })
          .first();
        await row.waitFor({ timeout: 10_000 });
        await row.click();
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await this.page.waitForTimeout(500);
      }
    }
  }

  /** Answers the editor's own (simple) file dialog with a path. */
  async fileDialog(path: string): Promise<void> {
    const input = this.quickInput.locator('input.input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    // The dialog fills in its start folder asynchronously; typing before that is overwritten.
    for (let waited = 0; waited < 10_000 && !(await input.inputValue()).endsWith('/'); waited += 100)
      await this.page.waitForTimeout(100);
    await this.page.waitForTimeout(300);
    const accept = this.quickInput.locator('.monaco-button', { hasText: /^(OK|Export|Import)$/ }).first();
    // Done when the dialog has accepted the path and closed. Under load the start folder can still
    // replace the typed path after all, and the button then opens that folder: type it again. A
    // click the busy dialog ignored left it open with the right path (a clean-clone run at load 8):
    // later attempts accept with Enter, the dialog's own accept key, and wait longer.
    for (let attempt = 1; ; attempt++) {
      await input.fill(path);
      await this.page.waitForTimeout(500);
      if (attempt === 1) await accept.click();
      else await input.press('Enter');
      try {
        await this.quickInput.waitFor({ state: 'hidden', timeout: attempt === 1 ? 10_000 : 20_000 });
        return;
      } catch (error) {
        if (attempt === 3)
          throw new Error(`the file dialog did not accept ${path}; it shows "${await input.inputValue()}"`, {
            cause: error,
          });
      }
    }
  }

  /** Types into the open quick input (input box or quick pick) and submits. */
  async answer(text: string): Promise<void> {
    const input = this.quickInput.locator('input.input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(text);
    await input.press('Enter');
  }

  /**
   * Clicks the first row matching label. With a title, waits for that quick pick first and types
   * filter into it: rows of a list still filling in move under the pointer, a filtered list does not.
   */
  async pickItem(label: string | RegExp, within?: { title: string | RegExp; filter: string }): Promise<void> {
    if (within) {
      await this.quickInput
        .locator('.quick-input-title', { hasText: within.title })
        .first()
        .waitFor({ timeout: 15_000 });
      await this.quickInput.locator('input.input').fill(within.filter);
    }
    const row = this.quickInput.locator('.monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
  }

  async dismissQuickInput(): Promise<void> {
    if (await this.quickInput.isVisible()) await this.page.keyboard.press('Escape');
  }

  /** Waits for a notification toast whose text matches, and returns its text. */
  async notification(text: RegExp, timeout = 20_000): Promise<string> {
    const toast = this.page.locator('.notification-toast', { hasText: text }).first();
    await toast.waitFor({ timeout });
    return (await toast.innerText()).trim();
  }

  /**
   * Waits for a command's result, shown either as a status bar message (a confirmation) or as a
   * notification (when it offers actions), and returns its text.
   */
  async feedback(text: RegExp, timeout = 20_000): Promise<string> {
    const shown = this.page.locator('.notification-toast, .statusbar-item').filter({ hasText: text }).first();
    await shown.waitFor({ timeout });
    return (await shown.innerText()).trim();
  }

  /** Waits for a status bar message (setStatusBarMessage), never a toast. */
  async statusMessage(text: RegExp, timeout = 20_000): Promise<string> {
    const item = this.page.locator('.statusbar-item').filter({ hasText: text }).first();
    await item.waitFor({ timeout });
    return (await item.innerText()).trim();
  }

  /**
   * Starts recording every notification toast the workbench shows (progress notifications aside),
   * with its action buttons, so a test can check that none was raised without an action.
   */
  async recordNotifications(): Promise<void> {
    // Keyed by message: a toast's buttons may render a moment after its text, so the most seen counts.
    await this.page.evaluate(`(() => {
      const toasts = new Map();
      window.fmlToasts = () => [...toasts.entries()].map(([text, buttons]) => ({ text, buttons }));
      const record = () => {
        for (const toast of document.querySelectorAll('.notification-toast')) {
          const text = (toast.querySelector('.notification-list-item-message')?.textContent ?? toast.textContent).trim();
          const buttons = [...toast.querySelectorAll('.monaco-button')].map((button) => button.textContent.trim()).filter(Boolean);
          // A progress notification (withProgress) reports work under way, not a result: not recorded.
          if (toast.querySelector('.monaco-progress-container.active')) continue;
          if (text && (!toasts.has(text) || toasts.get(text).length < buttons.length)) toasts.set(text, buttons);
        }
      };
      new MutationObserver(record).observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
  }

  /** The toasts seen since recordNotifications(). */
  async recordedNotifications(): Promise<Array<{ text: string; buttons: string[] }>> {
    return (await this.page.evaluate('window.fmlToasts ? window.fmlToasts() : []')) as Array<{
      text: string;
      buttons: string[];
    }>;
  }

  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications');
  }

  /** Clicks a button of a modal dialog (the workbench's custom dialog in the browser). */
  async dialogButton(label: string): Promise<void> {
    const button = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: label }).first();
    await button.waitFor({ timeout: 10_000 });
    await button.click();
  }

  /**
   * Opens a workspace file with Go to File. A file written on disk a moment ago can be missing from
   * the first file search (the search runs while the file watcher is still catching up, on a loaded
   * machine for many seconds): each failed attempt is printed, the pick is closed and asked again.
   */
  async openFile(name: string): Promise<void> {
    const label = new RegExp(`^\\W*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.runCommand('Go to File...');
        await this.quickInput.locator('input.input').fill(name);
        // File results arrive asynchronously; Enter before they do opens nothing.
        const row = this.quickInput.locator('.monaco-list-row', { hasText: label }).first();
        await row.waitFor({ timeout: 10_000 });
        await row.click();
        await this.page.locator('.tabs-container .tab.active', { hasText: name }).first().waitFor({ timeout: 15_000 });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        console.log(
          `openFile(${name}) attempt ${attempt} failed, trying again: ${(error as Error).message.split('\n')[0]}`,
        );
        await this.dismissQuickInput();
        await this.page.waitForTimeout(1_000);
      }
    }
  }

  /**
   * Renames the active editor's file in the Explorer with F2, as a user would: the row is clicked so
   * the Explorer has the focus, which is checked before F2 (with the focus still in the editor, F2 is
   * Rename Symbol: why F2 after Reveal Active File alone was unreliable). Each failed attempt is
   * printed with what had the focus, and the file is revealed again (Escape clears the selection).
   */
  async renameInExplorer(name: string, newName: string): Promise<void> {
    const row = this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    const input = this.page.locator('.explorer-folders-view .monaco-inputbox input');
    const focused = (): Promise<string> =>
      this.page.evaluate(
        "(() => { const el = document.activeElement; return (el?.closest('.explorer-folders-view') ? 'explorer ' : 'elsewhere ') + (el?.className ?? ''); })()",
      ) as Promise<string>;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.runCommand('File: Reveal Active File in Explorer View');
        await row.click({ timeout: 15_000 });
        await waitFor('the Explorer to have the focus', async () => (await focused()).startsWith('explorer '), 5_000);
        await this.page.keyboard.press('F2');
        await input.waitFor({ timeout: 10_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        console.log(
          `[e2e] Explorer rename, attempt ${attempt}: ${String(error).split('\n')[0]}; focus: ${await focused()}`,
        );
        await this.dismissQuickInput();
      }
    }
    await input.fill(newName);
    await input.press('Enter');
  }

  /** Focuses the text of the active editor. */
  async focusEditor(): Promise<void> {
    await this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  }

  /** Selects the active editor's whole text and waits until the status bar shows the selection. */
  async selectAllInEditor(): Promise<void> {
    await this.focusEditor();
    await this.page.keyboard.press('Control+A');
    await this.page
      .locator('.statusbar-item', { hasText: /selected\)/ })
      .first()
      .waitFor({ timeout: 10_000 });
  }

  /** Sets a setting through the Settings editor, as a user would; `settingsFile` is the user settings.json it writes. */
  async setSetting(settingsFile: string, id: string, value: string | boolean): Promise<void> {
    await this.runCommand('Preferences: Open User Settings');
    const editor = this.page.locator('.settings-editor').first();
    await editor.waitFor({ timeout: 15_000 });
    // The search box is a small Monaco editor: focus it and type.
    await editor.locator('.search-container .monaco-editor, .suggest-input-container').first().click();
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.type(id);
    const row = editor.locator('.setting-item', { hasText: settingTitle(id) }).first();
    await row.waitFor({ timeout: 15_000 });
    if (typeof value === 'boolean') {
      const checkbox = row.locator('.setting-value-checkbox').first();
      if (((await checkbox.getAttribute('aria-checked')) === 'true') !== value) await checkbox.click();
    } else {
      const input = row.locator('input').first();
      await input.fill(value);
      await input.press('Tab');
    }
    // The settings editor writes after a debounce; closing before it would drop the change, so it
    // stays open until the file holds the value.
    const expected = typeof value === 'boolean' ? value : Number.isNaN(Number(value)) ? value : Number(value);
    await waitFor(
      `${id} = ${String(value)} in ${settingsFile}`,
      () => settingIn(settingsFile, id) === expected,
      15_000,
    );
    // The settings editor opens as a modal in 1.139 and keeps the keyboard: close it with its own X.
    const close = editor
      .locator('xpath=ancestor::*[.//*[contains(@class,"codicon-close")]][1]')
      .locator('.codicon-close')
      .first();
    await close.click();
    await editor.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}

/** "fireboltMemory.workingMemory.maxTokens" is shown as "Max Tokens" under "Firebolt Memory › Working Memory". */
function settingTitle(id: string): RegExp {
  const last = id.split('.').pop() ?? id;
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2');
  return new RegExp(words.replace(/ /g, '\\s*'), 'i');
}

function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** A value of the user settings.json; undefined while the file is absent or half-written. */
function settingIn(settingsFile: string, id: string): unknown {
  try {
    return (JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>)[id];
  } catch (error) {
    if (error instanceof SyntaxError || (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
