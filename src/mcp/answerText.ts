/**
 * The text a model reads of a recall or context answer. Every token of it lands in the agent's
 * context, so it carries the memories and what an agent needs to act on them (a short id the
 * tools accept, the type, the layer when it is not the agent's own) and leaves the scores, full
 * ids and the rest to the structured content.
 */

import { staleNote } from '../core/anchors/anchorFreshness.ts';
import type { AnchorReport } from '../core/anchors/anchorModel.ts';
import type { RecalledMemory } from '../core/api/recallOutput.ts';
import { defuseStoredText } from '../core/api/storedText.ts';
import { provenanceText, repositoryOriginOf } from '../core/domain/repositoryOrigin.ts';

/** What the text reads of a recalled memory: the core's result, the breakdown optional as the tool lists it. */
type RecalledForText = Pick<
  RecalledMemory,
  'memory_id' | 'layer' | 'content' | 'memory_category' | 'memory_subtype' | 'event_time' | 'anchors'
> &
  Partial<Pick<RecalledMemory, 'why_matched' | 'metadata'>>;

interface ContextItemForText {
  content: string;
}

/** Layers an agent addresses without naming them; any other is named so update/forget can reach it. */
const OWN_LAYERS = new Set(['user', 'agent', 'session']);

/**
 * One memory a line: `mem_1a2b3c4d (decision, project layer, 2026-03-01): content`, plus why it
 * matched when explained. `shortId` gives the id as shown (shortIds.ts); the full one is in the
 * structured content.
 */
export function recallText(
  memories: readonly RecalledForText[],
  abstention: string | undefined,
  shortId: (memoryId: string) => string,
): string {
  // Only an empty answer says why (nothing cleared the relevance floor), so the agent knows memory has nothing on it.
  if (memories.length === 0) return abstention ?? 'No memories matched.';
  return memories
    .map((memory) => {
      // A memory about code that changed or is gone says so before its text, so it is never read as current.
      const stale = memory.anchors ? staleNote(memory.anchors as AnchorReport[]) : null;
      // A memory shared through the repository names its file and commit: the agent can cite or open it.
      const origin = repositoryOriginOf(memory.metadata);
      return `${shortId(memory.memory_id)} (${label(memory)}): ${stale ? `${stale} ` : ''}${oneLine(defuseStoredText(memory.content))}${origin ? ` [${oneLine(defuseStoredText(provenanceText(origin)))}]` : ''}${memory.why_matched ? `\n  why: ${memory.why_matched}` : ''}`;
    })
    .join('\n');
}

/**
 * The items as the core packed them: each is already a `<memory …>` envelope naming its source,
 * id and layer (the marking that keeps stored text from passing for instructions), so they are
 * joined as they are, without the scores and reasons of the structured content.
 */
export function contextText(items: readonly ContextItemForText[]): string {
  if (items.length === 0) return 'No context found.';
  return items.map((item) => item.content).join('\n');
}

function label(memory: RecalledForText): string {
  // The subtype says what kind of memory it is (decision, workflow, tools...); the category is implied by it.
  const parts = [memory.memory_subtype || memory.memory_category];
  if (!OWN_LAYERS.has(memory.layer)) parts.push(`${memory.layer} layer`);
  // The day is what a model reasons with; the time of day and zone cost tokens and rarely matter.
  if (memory.event_time) parts.push(memory.event_time.slice(0, 10));
  return parts.join(', ');
}

/** A memory is one line: its own line breaks would read as the next memory. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' / ');
}
