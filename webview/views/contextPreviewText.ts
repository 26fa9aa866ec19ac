/**
 * The Context preview for a person: what get_relevant_context hands the agent, read back without
 * the agent's framing. Pure (no DOM), so it is tested on its own.
 *
 * - Each item arrives as `<memory source=… id=… layer=…>` + text + `</memory>`: the text is shown,
 *   the attributes become words, and the raw item stays one click away.
 * - Reasons name matched terms as the search index holds them, stemmed ("servic"); they are shown
 *   as the word of the question or the memory that the stem came from ("services").
 * - Items saying nearly the same thing spend the budget twice: they are flagged.
 */

export interface Envelope {
  /** The attributes of the `<memory …>` block (source, id, layer, origin, confidence, warning). */
  attributes: Record<string, string>;
  /** The stored text as the agent reads it. */
  body: string;
}

const ENVELOPE = /^<memory((?:\s+[\w-]+="[^"]*")*)\s*>\n([\s\S]*)\n<\/memory>$/;

export function unwrapEnvelope(content: string): Envelope {
  const match = ENVELOPE.exec(content.trim());
  if (!match) return { attributes: {}, body: content };
  const attributes: Record<string, string> = {};
  for (const [, name, value] of match[1].matchAll(/([\w-]+)="([^"]*)"/g)) attributes[name] = value;
  return { attributes, body: match[2] };
}

const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * The word a stem came from: the first word of `texts` (the question first: the user's own words)
 * that starts with the stem, or shares all of it but its last letter ("happi" → "happy").
 */
export function wordForStem(stem: string, texts: readonly string[]): string {
  const lower = stem.toLowerCase();
  for (const text of texts)
    for (const [word] of text.matchAll(WORD)) if (word.toLowerCase().startsWith(lower)) return word;
  if (lower.length >= 4) {
    const prefix = lower.slice(0, -1);
    for (const text of texts)
      for (const [word] of text.matchAll(WORD)) if (word.toLowerCase().startsWith(prefix)) return word;
  }
  return stem;
}

/**
 * The core's reason for a long-term memory reads "<category>.<subtype> memory[ (<layer> layer)] for a
 * <intent> query: <evidence>.[ It overrides …]"; the category, layer and intent are shown beside the
 * item already, so what is left is the evidence, in the words of the question and the memory.
 */
const LONG_TERM_REASON =
  /^[\w-]+\.[\w-]+ memory(?: \([^)]*\))? for an? [\w-]+ query: (.*?)\.((?: It overrides[\s\S]*)?)$/;

/** The core's reason, in the words of the question and the memory. */
export function readableReason(why: string, query: string, body: string): string {
  const longTerm = LONG_TERM_REASON.exec(why.trim());
  if (!longTerm) return why;
  const evidence = longTerm[1]
    .split('; ')
    .map((part) => {
      const terms = /^matched terms (.+)$/.exec(part);
      if (terms) {
        const words = [
          ...new Set(
            terms[1]
              .split(', ')
              .filter(Boolean)
              .map((stem) => wordForStem(stem, [query, body])),
          ),
        ];
        return `matches ${words.map((word) => `“${word}”`).join(', ')}`;
      }
      const semantic = /^semantic similarity ([\d.]+)$/.exec(part);
      if (semantic) return `similar in meaning (${semantic[1]})`;
      return part;
    })
    .join('; ');
  return `${evidence.charAt(0).toUpperCase()}${evidence.slice(1)}.${longTerm[2]}`;
}

/** Two items whose word sets overlap this much (Jaccard) say nearly the same thing. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;

/** For each item, the index of an earlier item it nearly duplicates, or -1. */
export function nearDuplicates(bodies: readonly string[]): number[] {
  const sets = bodies.map((body) => new Set([...body.toLowerCase().matchAll(WORD)].map(([word]) => word)));
  return sets.map((set, index) => {
    if (set.size === 0) return -1;
    for (let earlier = 0; earlier < index; earlier++) {
      const other = sets[earlier];
      let shared = 0;
      for (const word of set) if (other.has(word)) shared++;
      const union = set.size + other.size - shared;
      if (union > 0 && shared / union >= NEAR_DUPLICATE_SIMILARITY) return earlier;
    }
    return -1;
  });
}

/** Where an item came from, in words: "long-term memory · project layer · from the editor". */
export function describeOrigin(attributes: Record<string, string>): string {
  const parts = [attributes.source === 'working_memory' ? 'working memory' : 'long-term memory'];
  if (attributes.layer && attributes.layer !== 'user') parts.push(`${attributes.layer} layer`);
  if (attributes.origin) parts.push(`from ${attributes.origin.replace(/_/g, ' ')}`);
  if (attributes.confidence) parts.push(`confidence ${attributes.confidence}`);
  return parts.join(' · ');
}
