/**
 * The text a model reads of a recall or context answer. Every token of it lands in the agent's
 * context, so it carries the memories and what an agent needs to act on them (the id, and the
 * layer when it is not the agent's own) and leaves the scores to the structured content.
 */

interface RecalledForText {
  memory_id: string;
  layer: string;
  content: string;
  event_time?: string | undefined;
  why_matched?: string | undefined;
}

interface ContextItemForText {
  content: string;
}

/** Layers an agent addresses without naming them; any other is named so update/forget can reach it. */
const OWN_LAYERS = new Set(['user', 'agent', 'session']);

/** One memory a line: `mem_… [project] (2026-03-01) content`, plus why it matched when explained. */
export function recallText(memories: readonly RecalledForText[], abstention?: string): string {
  // An empty answer says why (nothing cleared the relevance floor), so the agent knows memory has nothing on it.
  if (memories.length === 0) return abstention ?? 'No memories matched.';
  return memories.map((memory) => `${memory.memory_id}${label(memory)}: ${oneLine(memory.content)}${memory.why_matched ? `\n  why: ${memory.why_matched}` : ''}`).join('\n');
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

function label(memory: { layer?: string | undefined; event_time?: string | undefined }): string {
  const layer = memory.layer !== undefined && !OWN_LAYERS.has(memory.layer) ? ` [${memory.layer}]` : '';
  // The day is what a model reasons with; the time of day and zone cost tokens and rarely matter.
  const when = memory.event_time ? ` (${memory.event_time.slice(0, 10)})` : '';
  return `${layer}${when}`;
}

/** A memory is one line: its own line breaks would read as the next memory. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' / ');
}
