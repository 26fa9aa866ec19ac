import type { FactCategory } from '../facts/factModel.ts';

/**
 * Structured facts (seed 002) a sentence states plainly. Deliberately few keys: a wrong fact is
 * worse than none, because facts lead get_relevant_context.
 */

interface FactRule {
  pattern: RegExp;
  category: FactCategory;
  key: string;
  value: (match: RegExpExecArray) => string | undefined;
}

const FACT_RULES: readonly FactRule[] = [
  {
    pattern: /\b[Mm]y name is ([A-Z][\p{L}'-]+(?: [A-Z][\p{L}'-]+)?)/u,
    category: 'identity',
    key: 'name',
    value: (match) => match[1],
  },
  {
    pattern:
      /\b(?:i am|i'm) in the ([A-Za-z]+\/[A-Za-z_]+|[A-Z]{2,5}|UTC[+-]\d{1,2}) time ?zone\b|\bmy time ?zone is ([A-Za-z]+\/[A-Za-z_]+|[A-Z]{2,5}|UTC[+-]\d{1,2})\b/i,
    category: 'identity',
    key: 'timezone',
    value: (match) => match[1] ?? match[2],
  },
  {
    pattern:
      /\b(?:i am|i'm) (?:a|an|the) ((?:senior |junior |staff |lead |principal )?[\w -]{0,30}?(?:engineer|developer|designer|manager|architect|scientist|analyst|tech lead))\b/i,
    category: 'identity',
    key: 'role',
    value: (match) => match[1],
  },
  {
    pattern: /\buse (pnpm|yarn|npm|bun)\b(?! run)/i,
    category: 'preference',
    key: 'package_manager',
    value: (match) => match[1]?.toLowerCase(),
  },
  {
    pattern: /\b(\d)[- ]space indent(?:ation)?\b/i,
    category: 'preference',
    key: 'indentation',
    value: (match) => `${match[1]} spaces`,
  },
  { pattern: /\b(?:indent with|prefer) (tabs)\b/i, category: 'preference', key: 'indentation', value: () => 'tabs' },
];

export function detectFact(sentence: string): { category: FactCategory; key: string; value: string } | undefined {
  for (const rule of FACT_RULES) {
    const match = rule.pattern.exec(sentence);
    const value = match ? rule.value(match)?.trim() : undefined;
    if (value) return { category: rule.category, key: rule.key, value };
  }
  return undefined;
}
