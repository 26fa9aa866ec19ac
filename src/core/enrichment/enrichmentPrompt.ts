import type { EnrichmentInput } from './searchKeyEnricher.ts';

/** Most keys a model may add to one memory; the rest of the 30-key budget stays for agents and users. */
export const MAX_MODEL_KEYS = 12;

/** One prompt for every model (OpenAI-compatible, VS Code LM), so they agree on the JSON. */
export const ENRICHMENT_SYSTEM_PROMPT = [
  'You write search keys for a memory a coding agent stored, so it is found later when someone asks in other words.',
  'Return ONLY a JSON object: {"keys": ["...", ...]}. No prose, no code fences.',
  `Give at most ${MAX_MODEL_KEYS} keys, each a word or a short phrase (at most 6 words), lower case:`,
  '- synonyms and other spellings of its important words (e.g. "postgres" for PostgreSQL, "k8s" for Kubernetes);',
  '- the categories things in it belong to (e.g. "database" for PostgreSQL, "package manager" for pnpm, "test framework" for Vitest);',
  '- two or three short questions the memory answers (e.g. "which database did we choose").',
  "Never repeat the memory's own sentence, never invent facts it does not state, never include secrets, names of people or e-mail addresses.",
].join('\n');

export function enrichmentUserMessage(input: EnrichmentInput): string {
  return [
    `Kind: ${input.category}/${input.subtype}`,
    ...(input.entities.length > 0 ? [`Entities: ${input.entities.join(', ')}`] : []),
    'Memory:',
    input.content,
  ].join('\n');
}
