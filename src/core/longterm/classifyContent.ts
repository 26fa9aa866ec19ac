import { extractEntities } from '../entities/extractEntities.ts';
import type { MemoryCategory, MemorySubtype } from '../domain/taxonomy.ts';

export interface Classification {
  memory_category: MemoryCategory;
  memory_subtype: MemorySubtype;
  importance: number;
  entities: string[];
  is_temporal: boolean;
  /** Which rule decided, for why_included and tests. */
  rule: string;
}

interface Rule {
  name: string;
  pattern: RegExp;
  category: MemoryCategory;
  subtype: MemorySubtype;
  importance: number;
}

/**
 * Ordered rules: the first match wins, so specific phrasings (boundaries, corrections) come before
 * broad ones (facts). Written for developer conversations, not for any benchmark.
 */
const RULES: readonly Rule[] = [
  { name: 'boundary', pattern: /\b(never|don'?t|do not|avoid|stop)\b.{0,60}\b(use|suggest|add|touch|commit|push|run|call|write)\b/i, category: 'preference', subtype: 'boundaries', importance: 0.8 },
  { name: 'decision', pattern: /\b(decided|decision|we chose|chose|we('| wi)ll go with|went with|settled on|agreed to|opted for|picked)\b/i, category: 'episodic', subtype: 'decision', importance: 0.75 },
  { name: 'debugging-approach', pattern: /\b(when|if)\b.{0,80}\b(fails?|errors?|times? out|crash(es)?|breaks?|hangs?)\b.{0,40}\b(check|look at|try|restart|clear|run)\b/i, category: 'procedural', subtype: 'debugging', importance: 0.7 },
  { name: 'outcome', pattern: /\b(fixed|resolved|solved|root cause|caused by|turned out|failed because|works now|was due to|the fix)\b/i, category: 'episodic', subtype: 'outcome', importance: 0.7 },
  { name: 'tool-usage', pattern: /\b(use|run|prefer)\s+`?[\w@./-]+`?\s+(instead of|not|rather than)\b|\buse\s+(pnpm|yarn|npm|bun|uv|poetry|pip|cargo|make|gradle|mvn)\b/i, category: 'procedural', subtype: 'tool_usage', importance: 0.65 },
  { name: 'workflow', pattern: /\b(to (deploy|release|build|test|publish|migrate|set up|install)|steps?:|first\b.{0,80}\bthen\b|→|->)/i, category: 'procedural', subtype: 'workflow', importance: 0.65 },
  { name: 'communication', pattern: /\b(prefers?|likes?|wants?)\b.{0,40}\b(concise|short|brief|detailed|verbose|examples?|explanations?|answers?|bullet)/i, category: 'preference', subtype: 'communication', importance: 0.6 },
  { name: 'style', pattern: /\b(prefer|prefers|always use|convention|style|indent(ation)?|naming|tabs|spaces|camelCase|snake_case|functional|format(ting)?)\b/i, category: 'preference', subtype: 'style', importance: 0.6 },
  { name: 'tools-preference', pattern: /\b(i use|i prefer|my (editor|shell|terminal|ide)|keybindings)\b/i, category: 'preference', subtype: 'tools', importance: 0.55 },
  { name: 'user-fact', pattern: /\b(i am|i'm|my name is|my role|i work (on|at|as)|user is a)\b/i, category: 'semantic', subtype: 'user', importance: 0.6 },
  { name: 'pattern', pattern: /\b(pattern|we always|in this codebase|every (handler|component|module)|is done (by|with|via))\b/i, category: 'procedural', subtype: 'pattern', importance: 0.6 },
  { name: 'environment', pattern: /\b(node(\.js)? \d|python \d|running on|macos|windows|linux|docker|ci uses|github actions|version \d|env(ironment)? variable)\b/i, category: 'semantic', subtype: 'environment', importance: 0.5 },
  { name: 'event', pattern: /\b(deployed|released|merged|shipped|migrated|upgraded|rolled back|launched|happened|yesterday|today|last (week|month))\b/i, category: 'episodic', subtype: 'event', importance: 0.55 },
  { name: 'entity-fact', pattern: /\b(table|column|endpoint|schema|field|class|function|module|api)\b.{0,60}\b(has|have|is|are|returns|contains|takes)\b/i, category: 'semantic', subtype: 'entity', importance: 0.55 },
  { name: 'project-fact', pattern: /\b(project|repo|codebase|service|app|we use|uses|is built with|stack|database is)\b/i, category: 'semantic', subtype: 'project', importance: 0.5 },
];

const TEMPORAL_PATTERN = /\b(today|yesterday|tomorrow|now|currently|this (week|sprint|month)|last (week|month|year)|until|deadline|\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2})\b/i;
const EMPHASIS_PATTERN = /\b(important|critical|must|always|never|remember)\b|!{1,}/i;

/** Offline rule-based classification (seed 000 §5.3.4 without an LLM). */
export function classifyContent(content: string, fallback: { category: MemoryCategory; subtype: MemorySubtype } = { category: 'episodic', subtype: 'conversation' }): Classification {
  const rule = RULES.find((candidate) => candidate.pattern.test(content));
  const entities = extractEntities(content);
  const emphasis = EMPHASIS_PATTERN.test(content) ? 0.1 : 0;
  const richness = Math.min(0.1, entities.length * 0.02);
  const base = rule?.importance ?? 0.4;
  return {
    memory_category: rule?.category ?? fallback.category,
    memory_subtype: rule?.subtype ?? fallback.subtype,
    importance: Math.min(1, Math.round((base + emphasis + richness) * 100) / 100),
    entities,
    is_temporal: TEMPORAL_PATTERN.test(content),
    rule: rule?.name ?? 'fallback',
  };
}

/** Whether evicted or checkpointed working-memory content deserves a long-term memory. */
export function isWorthKeeping(content: string, tokenCount: number): boolean {
  if (tokenCount < 6) return false;
  if (/^\s*(ok(ay)?|thanks?( you)?|sure|yes|no|got it|done)[.!]?\s*$/i.test(content)) return false;
  return RULES.some((rule) => rule.pattern.test(content)) || tokenCount >= 20;
}
