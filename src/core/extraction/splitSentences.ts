/**
 * Splits a message into sentences so one message can yield several memories. Conservative on
 * purpose: file names, versions, abbreviations and code never split, and a sentence that leans
 * on the one before ("It …", "This …") stays attached, so every piece is self-contained.
 */

const FENCE = /```[\s\S]*?```/g;
/** Sentence end: terminal punctuation, then whitespace, then something that starts a sentence. */
const BOUNDARY = /(?<=[.!?])\s+(?=["'`(]?[A-Z0-9])/;
const ABBREVIATION = /\b(e\.g|i\.e|etc|vs|cf|approx|incl|mr|mrs|dr|no|fig)\.$/i;
/** Openers that refer back to the previous sentence. */
const DEPENDENT_OPENER = /^(it|this|that|these|those|they|which|so|because|but|also|then|otherwise)\b/i;
const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+/;

export function splitSentences(text: string): string[] {
  const fences: string[] = [];
  // Code blocks travel as one opaque token, so dots and newlines inside them never split.
  const masked = text.replace(FENCE, (block) => `\u0000${fences.push(block) - 1}\u0000`);
  const sentences: string[] = [];
  // A blank line or a bullet starts a new block; short or dependent pieces only join within one.
  for (const block of masked.split(/\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)/)) {
    const cleaned = block.replace(BULLET, '').replace(/\s+/g, ' ').trim();
    if (cleaned.length === 0) continue;
    const first = sentences.length;
    let pending = '';
    for (const part of cleaned.split(BOUNDARY)) {
      pending = pending ? `${pending} ${part}` : part;
      if (ABBREVIATION.test(pending)) continue;
      const previous = sentences.length - 1;
      if (previous >= first && (DEPENDENT_OPENER.test(pending) || pending.split(' ').length < 3))
        sentences[previous] = `${sentences[previous]} ${pending}`;
      else sentences.push(pending);
      pending = '';
    }
    if (pending) sentences.push(pending);
  }
  return sentences.map((sentence) =>
    sentence.replace(/\u0000(\d+)\u0000/g, (_, index: string) => fences[Number(index)] ?? ''),
  );
}
