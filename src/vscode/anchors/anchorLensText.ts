import type { CodeAnchor } from '../../core/anchors/anchorModel.ts';

/** What the CodeLens says of the memories on one piece of code. Pure, so it is tested without an editor. */
export interface LensMemory {
  memory_subtype: string;
  content: string;
  anchor: Pick<CodeAnchor, 'status'>;
}

const PREVIEW_CHARS = 32;

/**
 * "2 memories: decision “Use pnpm…” · outcome “Fixed the…”"; when the code of one changed, the title
 * starts with a warning icon and ends "— code changed since stored" (CodeLens titles have no colour:
 * the codicon is the visible mark), and the lens gets its actions (changedCodeActions.ts).
 */
export function lensTitle(memories: readonly LensMemory[]): string {
  const count = memories.length === 1 ? '1 memory' : `${memories.length} memories`;
  const previews = memories.slice(0, 3).map((memory) => `${memory.memory_subtype} “${preview(memory.content)}”`);
  const more = memories.length > 3 ? ` · +${memories.length - 3}` : '';
  const statuses = new Set(memories.map((memory) => memory.anchor.status));
  const changed = statuses.has('changed');
  const note = changed ? ' — code changed since stored' : statuses.has('moved') ? ' — moved here' : '';
  return `${changed ? '$(warning) ' : ''}${count}: ${previews.join(' · ')}${more}${note}`;
}

/** The actions offered beside a lens whose code changed: title, tooltip, and the command that does it. */
export const CHANGED_CODE_ACTIONS = [
  {
    title: 'Review',
    tooltip: 'Open the memory and what changed in its code',
    command: 'memory.reviewAnchoredMemory',
  },
  {
    title: 'Update',
    tooltip: 'Still true: anchor the memory on the code as it is now, keeping its text',
    command: 'memory.updateAnchoredMemory',
  },
  {
    title: 'Forget',
    tooltip: 'No longer true: forget the memory (Undo offered)',
    command: 'memory.forgetAnchoredMemory',
  },
] as const;

/** The first line of text: a note leads a selection memory, and the code after it is not the memory's gist. */
function preview(content: string): string {
  const first = content.split('\n').find((line) => line.trim() !== '') ?? '';
  const line = first.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}
