/**
 * Recognises a correction ("actually, it's X not Y") so the extractor can mark supersede intent
 * instead of storing a second statement that conflicts with the first.
 */

const CUE =
  /^\s*(?:actually|correction|sorry|oops|wait|no)\b[,:!]?\s*|\b(?:i meant|to correct|i was wrong|that'?s wrong|that was wrong)\b[,:]?\s*/i;
const FORMS: readonly RegExp[] = [
  // "… X, not Y" / "… X and not Y"
  /^(?<stmt>.*?\S),?\s+(?:and\s+)?not\s+(?<old>[^,;.!?]+?)\s*[.!?]?$/i,
  // "… not Y but X"
  /^(?<stmt>.*?)\bnot\s+(?<old>[^,;]+?),?\s+but\s+(?<new>.+?)\s*[.!?]?$/i,
  // "… X instead of Y" / "… X rather than Y"
  /^(?<stmt>.*?\S)\s+(?:instead of|rather than)\s+(?<old>[^,;.!?]+?)\s*[.!?]?$/i,
];

export interface DetectedCorrection {
  /** The corrected statement with the cue ("Actually, …") removed. */
  statement: string;
  /** The wrong value the statement replaces. */
  replaces: string;
}

export function detectCorrection(sentence: string): DetectedCorrection | null {
  if (!CUE.test(sentence)) return null;
  const statement = capitalise(sentence.replace(CUE, '').trim());
  for (const form of FORMS) {
    const match = form.exec(statement);
    const old = match?.groups?.old?.trim().replace(/^(the|a|an)\s+/i, '');
    if (match && old && old.length <= 80) {
      const stated = match.groups?.new ? `${match.groups.stmt.trim()} ${match.groups.new.trim()}`.trim() : statement;
      return { statement: stated.replace(/[.!?]*$/, ''), replaces: old };
    }
  }
  return null;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
