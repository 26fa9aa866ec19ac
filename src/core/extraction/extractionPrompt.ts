import { TAXONOMY } from '../domain/taxonomy.ts';
import { FACT_CATEGORIES } from '../facts/factModel.ts';
import type { ExtractionInput } from './extractor.ts';

/** One prompt for every model-based extractor (OpenAI-compatible, VS Code LM), so they agree on the JSON. */
export const EXTRACTION_SYSTEM_PROMPT = [
  "You extract memories worth keeping from a developer's conversation with a coding agent.",
  'Return ONLY a JSON object: {"memories": [ ... ]}. No prose, no code fences.',
  'Each memory is an object with exactly these keys:',
  '  "content": one self-contained sentence (resolve "it"/"this" to what they refer to),',
  '  "category" and "subtype": one of ' +
    Object.entries(TAXONOMY)
      .map(([category, subtypes]) => `${category}: ${subtypes.join('|')}`)
      .join('; ') +
    ',',
  '  "importance": number 0..1 (how likely this is needed again),',
  '  "entities": array of "kind:name" strings (file:src/a.ts, package:zod, table:users, symbol:fooBar),',
  '  "is_temporal": true when the statement is time-bound (an event, a deadline, "currently"),',
  `  "fact": null or {"category": ${FACT_CATEGORIES.map((category) => `"${category}"`).join('|')}, "key": snake_case, "value": string} for a stable personal fact or preference,`,
  '  "corrects": null, or the wrong value a correction replaces ("actually it is X, not Y" gives "Y").',
  'Extract decisions, outcomes, preferences, boundaries, tool usage, workflows and facts about the user, project and environment.',
  'Skip greetings, acknowledgements, questions and anything not useful in a later session. Return {"memories": []} when nothing qualifies.',
].join('\n');

export function extractionUserMessage(input: ExtractionInput): string {
  const context = input.context;
  const lines = [
    ...(context?.summary ? [`Session context: ${context.summary}`] : []),
    ...(context?.source ? [`Source: ${context.source}`] : []),
    'Content:',
    input.content,
  ];
  return lines.join('\n');
}
