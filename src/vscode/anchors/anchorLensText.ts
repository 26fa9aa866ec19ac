import type { CodeAnchor } from '../../core/anchors/anchorModel.ts';

/** What the CodeLens says of the memories on one piece of code. Pure, so it is tested without an editor. */
export interface LensMemory {
  memory_subtype: string;
  content: string;
  anchor: Pick<CodeAnchor, 'status'>;
}

const PREVIEW_CHARS = 32;

/** "2 memories: decision “Use pnpm…” · outcome “Fixed the…” — code changed since stored" */
export function lensTitle(memories: readonly LensMemory[]): string {
  const count = memories.length === 1 ? '1 memory' : `${memories.length} memories`;
  const previews = memories.slice(0, 3).map((memory) => `${memory.memory_subtype} “${preview(memory.content)}”`);
  const more = memories.length > 3 ? ` · +${memories.length - 3}` : '';
  const statuses = new Set(memories.map((memory) => memory.anchor.status));
  const note = statuses.has('changed') ? ' — code changed since stored' : statuses.has('moved') ? ' — moved here' : '';
  return `${count}: ${previews.join(' · ')}${more}${note}`;
}

function preview(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}
