import * as vscode from 'vscode';
import type { Log } from '../log.ts';

/** How long a confirmation stays in the status bar: long enough to read, gone before it is noise. */
export const STATUS_MESSAGE_MS = 5_000;

export interface FeedbackAction {
  label: string;
  run: () => unknown;
}

/**
 * The two ways a command reports a result, so that saves stay quiet (issue #17, "Native and quiet"):
 *
 * - `confirm`: the result needs nothing more from the user; it shows in the status bar for a few
 *   seconds (and in the log) and never stacks up as a toast.
 * - `offer`: the user may want to act on the result right now (Undo, Open, Show in Panel); a
 *   notification carries those actions. A notification without an action is never raised.
 */
export function confirm(log: Log, message: string): void {
  log.info(message);
  vscode.window.setStatusBarMessage(`$(check) ${message}`, STATUS_MESSAGE_MS);
}

export function offer(log: Log, message: string, first: FeedbackAction, ...more: FeedbackAction[]): void {
  log.info(message);
  const actions = [first, ...more];
  Promise.resolve(vscode.window.showInformationMessage(message, ...actions.map((action) => action.label)))
    .then(async (choice) => {
      const chosen = actions.find((action) => action.label === choice);
      if (chosen) await chosen.run();
    })
    .catch((error: unknown) => log.error(`Acting on "${message}" failed`, error));
}
