/**
 * Desktop VS Code runs extensions on Electron's Node, and some Electron builds of 2025 shipped
 * without a working `node:sqlite` (electron/electron#47671: Electron 37.2.0 to 37.2.2 threw "No such
 * binding: sqlite" after the Node 22.17 update; fixed by electron/electron#47706, released in 37.2.3
 * and backported to 36). VS Code 1.101 (Electron 35.5.1, Node 22.15.1) is the first release with a
 * working one, and stable VS Code went from 35.5.1 to 37.2.3, skipping the broken builds (evidence in
 * docs/extension.md). The memory process runs on the same executable, so the window checks once at
 * activation and explains, instead of failing later with a stack trace. No `vscode` import:
 * unit-tested with stand-in loaders.
 */
export const MINIMUM_VSCODE = '1.101.0';

export interface RuntimeFacts {
  node: string;
  electron: string | undefined;
  editor: string;
}

export type SqliteLoader = () => unknown;

/** Null when `node:sqlite` loads and has DatabaseSync; else the message the user sees. */
export function sqliteRuntimeProblem(load: SqliteLoader, facts: RuntimeFacts): string | null {
  let loaded: unknown;
  let failure: string | null = null;
  try {
    loaded = load();
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  const usable =
    failure === null &&
    typeof loaded === 'object' &&
    loaded !== null &&
    typeof (loaded as { DatabaseSync?: unknown }).DatabaseSync === 'function';
  if (usable) return null;
  const runtime = `VS Code ${facts.editor}, Node ${facts.node}${facts.electron ? `, Electron ${facts.electron}` : ''}`;
  return (
    `Firebolt Memory needs Node's built-in SQLite (node:sqlite), which this editor's runtime does not provide (${runtime}` +
    `${failure ? `: ${failure}` : ''}). Update VS Code to the latest release (at least ${MINIMUM_VSCODE}); ` +
    'Electron builds affected by electron/electron#47671 lack it. Until then, use the fml CLI with Node 22.13 or later.'
  );
}

/** The real loader: `process.getBuiltinModule` (Node ≥ 22.3) returns undefined for a missing builtin, throws for a broken one. */
export function loadNodeSqlite(): unknown {
  return process.getBuiltinModule('node:sqlite');
}
