import type { RecalledMemory } from '../../src/shared/panelProtocol.ts';
import { h } from '../ui/dom.ts';

const SIGNALS: Array<[keyof RecalledMemory['score_breakdown'], string]> = [
  ['text_match', 'Text match'],
  ['semantic', 'Semantic'],
  ['recency', 'Recency'],
  ['importance', 'Importance'],
  ['frequency', 'Frequency'],
  ['entity_match', 'Entity match'],
];

/** Each signal of a search result's score as a labelled bar, plus why it matched. */
export function renderScoreBreakdown(memory: RecalledMemory): HTMLElement {
  const breakdown = memory.score_breakdown;
  return h(
    'section',
    { class: 'score-breakdown', 'aria-label': 'Score breakdown' },
    h('h3', null, `Relevance ${memory.relevance_score.toFixed(3)}`),
    h('p', { class: 'why' }, memory.why_matched),
    h(
      'dl',
      { class: 'signal-bars' },
      SIGNALS.map(([key, label]) => {
        const value = breakdown[key] as number | null;
        const bar = h('meter', {
          min: '0',
          max: '1',
          value: String(value ?? 0),
          'aria-label': `${label} ${value === null ? 'not available' : value.toFixed(2)}`,
        });
        return [
          h('dt', null, label),
          h('dd', null, bar, h('span', { class: 'signal-value' }, value === null ? 'n/a' : value.toFixed(2))),
        ];
      }),
    ),
    h(
      'p',
      { class: 'muted' },
      `Type weight ×${breakdown.type_weight.toFixed(2)} · confidence ×${breakdown.confidence.toFixed(2)}`,
      breakdown.matched_terms.length > 0 ? ` · terms: ${breakdown.matched_terms.join(', ')}` : '',
      breakdown.matched_entities.length > 0 ? ` · entities: ${breakdown.matched_entities.join(', ')}` : '',
      breakdown.signals.length > 0 ? ` · signals: ${breakdown.signals.join(', ')}` : '',
    ),
  );
}

/** A compact score for the list row. */
export function scoreLabel(memory: RecalledMemory): string {
  return memory.relevance_score.toFixed(2);
}
