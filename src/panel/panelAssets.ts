import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryError } from '../core/domain/errors.ts';

/** Built files the panel needs, relative to dist/webview (esbuild.mjs writes them there). */
export const PANEL_ASSET_FILES = {
  'main.js': 'text/javascript; charset=utf-8',
  'panel.css': 'text/css; charset=utf-8',
  'browserTheme.css': 'text/css; charset=utf-8',
  'codicons/codicon.css': 'text/css; charset=utf-8',
  'codicons/codicon.ttf': 'font/ttf',
} as const;

export type PanelAssetName = keyof typeof PANEL_ASSET_FILES;

/**
 * The first candidate directory holding the built panel. The bundled CLI lives in dist/, so
 * dist/webview sits next to it; from sources it is the repository's dist/webview.
 */
export function locatePanelAssets(candidates: readonly string[]): string {
  for (const candidate of candidates) if (existsSync(join(candidate, 'main.js'))) return candidate;
  throw new MemoryError(
    'CONFIGURATION_ERROR',
    `The memory panel is not built (looked for main.js in ${candidates.join(', ')}). Run "npm run build" first.`,
  );
}

/** Candidate asset directories for a process started from `entryFile` (process.argv[1]). */
export function defaultAssetCandidates(entryFile: string | undefined, cwd: string): string[] {
  return [...(entryFile ? [join(dirname(entryFile), 'webview')] : []), join(cwd, 'dist', 'webview')];
}
