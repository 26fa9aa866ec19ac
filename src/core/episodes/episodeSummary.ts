import type { MemoryExtractor } from '../extraction/extractor.ts';
import { splitSentences } from '../extraction/splitSentences.ts';

export interface EpisodeTurn {
  turn: number;
  content: string;
}

/** Most statements one summary keeps, and most characters of each: a summary, not a transcript. */
const MAX_STATEMENTS = 8;
const MAX_STATEMENT_CHARS = 240;

/**
 * One summary of a run of conversation turns (seed 002 mid-term memory), written by the
 * extractor the server runs: the offline rules by default, a language model when one is
 * configured and allowed. The extractor pulls the statements worth keeping (decisions, facts,
 * workflows, outcomes) from the whole run; the summary lists them under the turn range. When the
 * turns hold nothing an extractor recognises, their opening sentences stand in, so a summary
 * always says what was talked about.
 */
export async function summarizeEpisode(
  turns: readonly EpisodeTurn[],
  range: { start: number; end: number },
  extractor: MemoryExtractor,
  context: { user_id: string; session_id: string; project_id: string | null },
): Promise<string> {
  const transcript = turns.map((turn) => turn.content).join('\n\n');
  const extracted = await extractor.extract({
    content: transcript,
    context: { ...context, source: 'conversation-episode' },
  });
  // The most important statements (decisions before chatter), told in the order they were said.
  const seen = new Set<string>();
  const statements = extracted
    .map((memory, order) => ({ text: memory.content.trim(), importance: memory.importance, order }))
    .filter(
      (entry) => entry.text.length > 0 && !seen.has(entry.text.toLowerCase()) && seen.add(entry.text.toLowerCase()),
    )
    .sort((a, b) => b.importance - a.importance || a.order - b.order)
    .slice(0, MAX_STATEMENTS)
    .sort((a, b) => a.order - b.order)
    .map((entry) => entry.text);
  const chosen = (statements.length > 0 ? statements : openingSentences(turns).slice(0, MAX_STATEMENTS)).map(shorten);
  return `Conversation turns ${range.start}–${range.end}: ${chosen.map(withFullStop).join(' ')}`;
}

function openingSentences(turns: readonly EpisodeTurn[]): string[] {
  return unique(
    turns
      .map((turn) => splitSentences(turn.content)[0] ?? '')
      .filter((sentence) => sentence.trim().split(/\s+/).length >= 3),
  );
}

function unique(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  return texts
    .map((text) => text.trim())
    .filter((text) => text.length > 0 && !seen.has(text.toLowerCase()) && seen.add(text.toLowerCase()));
}

function shorten(text: string): string {
  return text.length <= MAX_STATEMENT_CHARS ? text : `${text.slice(0, MAX_STATEMENT_CHARS - 1).trimEnd()}…`;
}

function withFullStop(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
