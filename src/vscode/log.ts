import * as vscode from 'vscode';
import { MemoryError } from '../core/domain/errors.ts';
import type { Logger } from '../core/ports/logger.ts';

/**
 * The extension's log channel plus the one way errors reach the user: logged with context every
 * time, shown as a notification once per distinct problem so a failing background source (a
 * store that is down) cannot flood the window.
 */
export class Log {
  readonly channel: vscode.LogOutputChannel;
  private readonly shown = new Set<string>();

  constructor() {
    this.channel = vscode.window.createOutputChannel('Firebolt Memory', { log: true });
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  /** Logs and, the first time this problem appears, shows it with optional actions. */
  error(context: string, error: unknown, actions: Array<{ title: string; run: () => unknown }> = []): void {
    const message = describeError(error);
    this.channel.error(`${context}: ${message}`, ...(error instanceof Error && error.stack ? [error.stack] : []));
    const key = `${context}\u0000${MemoryError.is(error) ? error.code : message}`;
    if (this.shown.has(key)) return;
    this.shown.add(key);
    const buttons = [...actions.map((action) => action.title), 'Show Logs'];
    void vscode.window.showErrorMessage(`Memory: ${context}: ${message}`, ...buttons).then((choice) => {
      if (choice === 'Show Logs') this.channel.show(true);
      actions.find((action) => action.title === choice)?.run();
    });
  }

  /**
   * The core's logger port over this channel: background failures are logged, never shown as
   * notifications (they retry on their own; a failure the user must act on comes through error()).
   */
  asLogger(): Logger {
    const withCause = (message: string, error: unknown): string =>
      error === undefined ? message : `${message}: ${describeError(error)}`;
    return {
      info: (message) => this.channel.info(message),
      warn: (message, error) => this.channel.warn(withCause(message, error)),
      error: (message, error) => this.channel.error(withCause(message, error)),
    };
  }

  /** After the user fixed something (new settings, a new key), the same problem may be shown again. */
  resetShown(): void {
    this.shown.clear();
  }

  dispose(): void {
    this.channel.dispose();
  }
}

export function describeError(error: unknown): string {
  if (MemoryError.is(error)) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
