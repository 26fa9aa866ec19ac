/**
 * The file-system port the anchor check runs on: the same check runs in the extension host and in
 * `fml serve --workspace DIR`, each with its own implementation. Paths are workspace-relative with
 * forward slashes.
 */
export interface WorkspaceFiles {
  /** The file's text and modification time; null when it does not exist (or is not a readable text file). */
  read(path: string): Promise<{ text: string; mtimeMs: number } | null>;
  /** The file's modification time; null when it does not exist. Called before every cached reuse, so it must be cheap. */
  modified(path: string): Promise<number | null>;
  /** Every source file of the workspace, for finding code that moved (ignored folders left out). */
  list(): Promise<string[]>;
}
