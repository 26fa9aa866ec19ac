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
  { name: 'boundary', pattern: /\b(never|don'?t|do not|avoid|stop)\b.{0,60}\b(use|suggest|add|touch|commit|push|run|call|write|modify|edit|change|delete)\b|\b(stay out of|hands off|off[- ]limits)\b|\bleave\b.{1,40}\balone\b/i, category: 'preference', subtype: 'boundaries', importance: 0.8 },
  { name: 'decision', pattern: /\b(decided|decision|we chose|chose|(we|i)('| wi)ll go with|let'?s (go with|use|stick with)|going with|went with|settled on|agreed (to|on)|opted for|picked|was the call|going forward)\b/i, category: 'episodic', subtype: 'decision', importance: 0.75 },
  { name: 'debugging-approach', pattern: /\b(when|if)\b.{0,80}\b(fails?|errors?|times? out|crash(es)?|breaks?|hangs?)\b.{0,40}\b(check|look at|try|restart|clear|run|kill|rerun|retry|delete|rebuild|reinstall)\b|\bto (debug|troubleshoot|diagnose)\b|\busually means?\b|\bif you see\b/i, category: 'procedural', subtype: 'debugging', importance: 0.7 },
  { name: 'outcome', pattern: /\b(fixed|resolved|solved|root cause|caused by|turned out|failed because|works now|was due to|the fix (was|is)|came from|the culprit|did ?n[o']t (work|help))\b|\bmade (it|the\b.{1,30}) (go away|work|pass)\b/i, category: 'episodic', subtype: 'outcome', importance: 0.7 },
  { name: 'tool-usage', pattern: /\b(use|run|prefer)\s+`?[\w@./-]+`?\s+(instead of|not|rather than)\b|\buse\s+(pnpm|yarn|npm|bun|uv|poetry|pip|cargo|make|gradle|mvn)\b|^\s*(format|lint|type-?check|build|bundle|test|run)\b.{0,40}\bwith\b|\b(npm|pnpm|yarn|bun|npx) (run|exec|dlx)\b/i, category: 'procedural', subtype: 'tool_usage', importance: 0.65 },
  { name: 'workflow', pattern: /\b(to (deploy|release|build|test|publish|migrate|set up|install|add|create|cut|ship|upgrade|onboard|bootstrap)|steps?:|first\b.{0,80}\bthen\b|,\s*then\b|before (merg|push|deploy|releas|commit)\w*|need(s)? (one|an?|two) (approv\w+ )?reviews?|go(es)? on a branch)|→|->/i, category: 'procedural', subtype: 'workflow', importance: 0.65 },
  { name: 'communication', pattern: /\b(prefers?|likes?|wants?)\b.{0,40}\b(concise|short|brief|detailed|verbose|examples?|explanations?|answers?|bullet)|\b(explain|answer|reply|respond)\b.{0,40}\b(step by step|in (english|german|french|spanish|italian|portuguese|dutch|japanese|chinese))\b|\b(keep (replies|answers|responses|it) (short|brief)|skip the (summary|intro|preamble)|tl;?dr)\b/i, category: 'preference', subtype: 'communication', importance: 0.6 },
  { name: 'style', pattern: /\b(always use|convention|style|indent(ation)?|naming|tabs|spaces|camelCase|snake_case|PascalCase|kebab-case|functional|format(ting)?|early returns?|quotes|trailing commas?|semicolons|line length)\b/i, category: 'preference', subtype: 'style', importance: 0.6 },
  { name: 'tools-preference', pattern: /\b(i use|i debug (in|with)|my (editor|shell|terminal|ide|setup)|keybindings)\b/i, category: 'preference', subtype: 'tools', importance: 0.55 },
  { name: 'style-preference', pattern: /\b(prefer|prefers|i like|i'd rather)\b/i, category: 'preference', subtype: 'style', importance: 0.55 },
  { name: 'user-fact', pattern: /\b(my name is|my role|i work (on|at|as)|user is a|i maintain|(i am|i'm) (a|an|the)\b|(i am|i'm) in the [\w/ ]{2,40} time ?zone)/i, category: 'semantic', subtype: 'user', importance: 0.6 },
  { name: 'domain', pattern: /\b(in (our|the|this) domain|business rules?|compliance|regulat\w+|is when|belongs to (exactly )?(one|a single)|can own|per the (policy|rules|contract)|is defined as)\b/i, category: 'semantic', subtype: 'domain', importance: 0.55 },
  { name: 'pattern', pattern: /\b(pattern|we always|in this codebase|every (handler|component|module|service|endpoint|page|route|test)|is done (by|with|via)|(are|is) (thrown|wrapped|injected|registered|validated|mapped) (as|by|through|with|via|in)|wraps? the)\b/i, category: 'procedural', subtype: 'pattern', importance: 0.6 },
  { name: 'environment', pattern: /\b(node(\.js)? \d|python \d|postgres(ql)? \d|redis \d|kubernetes|k8s|docker|macos|macbook|windows|linux|runs? on|running on|listens on|port \d+|ci uses|github actions|version \d|env(ironment)? variable|\d+ ?gb (of )?ram)\b/i, category: 'semantic', subtype: 'environment', importance: 0.5 },
  { name: 'event', pattern: /\b(deployed|released|merged|shipped|migrated|upgraded|rolled back|launched|happened|went down|outage|finished|yesterday|today|last (week|month|sprint))\b/i, category: 'episodic', subtype: 'event', importance: 0.55 },
  { name: 'conversation', pattern: /\b(discussed|talked (through|about|over)|went over|asked (me|us)|conversation|meeting|chatted)\b/i, category: 'episodic', subtype: 'conversation', importance: 0.45 },
  { name: 'entity-fact', pattern: /\b(table|column|endpoint|schema|field|class|function|module|api)\b.{0,60}\b(has|have|is|are|returns|contains|takes)\b|\b[\w$.]+\(\)\s+(takes|returns|throws|accepts)\b/i, category: 'semantic', subtype: 'entity', importance: 0.55 },
  { name: 'project-fact', pattern: /\b(project|repo|codebase|service|app|we use|uses|is built with|stack|database is)\b/i, category: 'semantic', subtype: 'project', importance: 0.5 },
];

const TEMPORAL_PATTERN = /\b(today|yesterday|tomorrow|tonight|now|currently|this (morning|afternoon|evening|week|sprint|month|quarter)|last (night|week|month|year|sprint|quarter)|(on|last) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d+ (days|weeks|months) ago|until|deadline|\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2})\b/i;
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

/** An explicit request to remember something: always kept, however short. */
const EXPLICIT_REMEMBER = /\b(remember|don'?t forget|do not forget|keep in mind|make a note|note that|for future reference)\b/i;
/** Acknowledgements that carry nothing to remember. */
const TRIVIAL = /^\s*(\w+:\s*)?(ok(ay)?|thanks?( you)?|thx|sure|yes|no|yep|nope|got it|done|cool|great|nice|sounds good|lgtm|hi|hello|hey)[.!]*\s*$/i;

/** Whether evicted or checkpointed working-memory content deserves a long-term memory. */
export function isWorthKeeping(content: string, tokenCount: number): boolean {
  if (TRIVIAL.test(content)) return false;
  if (EXPLICIT_REMEMBER.test(content) && tokenCount >= 3) return true;
  if (tokenCount < 6) return false;
  return RULES.some((rule) => rule.pattern.test(content)) || tokenCount >= 20;
}

/**
 * Whether content is kept when its session is cleared. A clear ends the session, so this is the
 * last chance to keep what was said: everything but acknowledgements and fragments is kept, not
 * just what the rules recognise (that selectivity is for the periodic checkpoint).
 */
export function isWorthKeepingAtClear(content: string, tokenCount: number): boolean {
  if (TRIVIAL.test(content)) return false;
  return isWorthKeeping(content, tokenCount) || tokenCount >= 4;
}
