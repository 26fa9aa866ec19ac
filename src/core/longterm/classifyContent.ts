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

const WEEKDAYS = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
/** A past point in time: "yesterday", "last night", "on Monday", "on March 3rd", "over the weekend". */
const PAST_POINT = `\\b(?:yesterday|last (?:night|week|month|sprint|quarter|year)|this (?:morning|afternoon)|tonight|earlier today|over the weekend|on ${WEEKDAYS}\\b|on (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.? \\d|at the (?:start|end) of the (?:sprint|week|month|quarter))`;
/** A verb in the past tense: regular "-ed" forms and the irregular ones developers write. */
const PAST_VERB = '\\b(?:\\w+ed|ran|went|lost|cut|broke|took|began|shipped|was|were|did|made|got|hit)\\b';
/** Symptoms a debugging tip starts from. */
const SYMPTOM =
  '(?:fails?|errors?|times? out|crash(?:es)?|breaks?|hangs?|lags?|drops?|is slow|are slow|leaks?|spikes?|stalls?|shows? a blank|blank screen|5\\d\\d|oom)';

/**
 * Ordered rules: the first match wins, so specific phrasings (team cadences, boundaries,
 * corrections) come before broad ones (facts). Written for developer conversations and tuned on
 * the tuning split of test/fixtures/classifier/labelledNotes.json (npm run bench:classifier),
 * never on its held-out split.
 */
const RULES: readonly Rule[] = [
  // A rule of the team's process ("never on Fridays", "every sprint"), not a limit set for the assistant.
  {
    name: 'cadence',
    pattern: new RegExp(
      `\\b${WEEKDAYS}s\\b|\\b(?:every|each) (?:sprint|release|week|morning|iteration|${WEEKDAYS})\\b|\\bcode freeze\\b|\\bgo(?:es)? out (?:on|every)\\b`,
      'i',
    ),
    category: 'procedural',
    subtype: 'workflow',
    importance: 0.65,
  },
  {
    name: 'boundary',
    pattern:
      /\b(never|don'?t|do not|avoid|stop)\b.{0,60}\b(us|suggest|add|touch|commit|push|run|call|writ|modify|edit|chang|delet|rewrit|refactor|install|introduc|upgrad)(e|es|ed|ing|s)?\b|\b(stay out of|hands off|off[- ]limits|without asking|unless i ask|on my behalf)\b|\bleave\b.{1,40}\balone\b/i,
    category: 'preference',
    subtype: 'boundaries',
    importance: 0.8,
  },
  {
    name: 'decision',
    pattern:
      /\b(decided|decision|we chose|chose|(we|i)('| wi)ll go with|let'?s (go with|use|stick with)|going with|went with|settled on|agreed (to|on)|opted for|picked|was the call|call was made|going forward|we('ll| will| are going to|'re going to) (use|adopt|move to|switch to|migrate to|keep))\b/i,
    category: 'episodic',
    subtype: 'decision',
    importance: 0.75,
  },
  {
    name: 'debugging-approach',
    pattern: new RegExp(
      `\\b(when|if)\\b.{0,80}\\b${SYMPTOM}\\b.{0,60}\\b(check|look at|look for|compare|inspect|verify|make sure|try|restart|clear|run|kill|rerun|retry|delete|rebuild|reinstall|unregister|turn on|enable)\\b|\\bto (debug|troubleshoot|diagnose)\\b|\\busually means?\\b|\\bif you see\\b|\\b(are|is) usually\\b.{0,80}\\b(check|look)\\b`,
      'i',
    ),
    category: 'procedural',
    subtype: 'debugging',
    importance: 0.7,
  },
  {
    name: 'outcome',
    pattern:
      /\b(fixed|resolved|solved|root cause|caused by|turned out|failed because|works now|was due to|the fix (was|is)|came from|the culprit|did ?n[o']t (work|help)|(fixed|solved|broke) (it|the)|passed (at|after|once))\b|\bmade (it|the\b.{1,30}) (go away|work|pass)\b|\bcut the\b.{1,40}\bfrom\b.{1,30}\bto\b/i,
    category: 'episodic',
    subtype: 'outcome',
    importance: 0.7,
  },
  {
    name: 'conversation',
    pattern:
      /\b(discussed|talked (through|about|over)|went over|walked through|asked (me|us)|conversation|meeting|chatted|had a (long |quick |short )?(chat|call|talk)|in a call|on a call|standup|retro)\b/i,
    category: 'episodic',
    subtype: 'conversation',
    importance: 0.45,
  },
  {
    name: 'dated-event',
    pattern: new RegExp(`${PAST_VERB}.{0,80}${PAST_POINT}|${PAST_POINT}.{0,80}${PAST_VERB}`, 'i'),
    category: 'episodic',
    subtype: 'event',
    importance: 0.55,
  },
  {
    name: 'tool-usage',
    pattern:
      /\b(use|run|prefer)\s+`?[\w@./-]+`?\s+(instead of|not|rather than)\b|^\s*(use|run)\b.{0,40}\b(instead of|rather than)\b|\buse\s+(pnpm|yarn|npm|bun|uv|poetry|pip|cargo|make|gradle|mvn)\b|^\s*(format|lint|type-?check|build|bundle|test|run)\b.{0,40}\bwith\b|\b(npm|pnpm|yarn|bun|npx) (run|exec|dlx)\b|\b(with|through|via) (make|just|mise|nx|turbo|bazel) \w+/i,
    category: 'procedural',
    subtype: 'tool_usage',
    importance: 0.65,
  },
  {
    name: 'style-rule',
    pattern:
      /^\s*name \w+|\b(is|has) prefix\b|\bprefix(ed)? with\b|\blines? (under|below|shorter than|at most)\b|\b\d+ characters\b|\bshould read like\b|\babbreviations?\b/i,
    category: 'preference',
    subtype: 'style',
    importance: 0.6,
  },
  {
    name: 'workflow',
    pattern:
      /\b(to (deploy|release|build|test|publish|migrate|set up|install|add|create|cut|ship|upgrade|onboard|bootstrap|rotate)|steps?:|first\b.{0,80}\bthen\b|,\s*then\b|before (merg|push|deploy|releas|commit)\w*|need(s)? (one|an?|two) (approv\w+ )?reviews?|go(es)? on a branch|branch(es)? from)|→|->/i,
    category: 'procedural',
    subtype: 'workflow',
    importance: 0.65,
  },
  {
    name: 'communication',
    pattern:
      /\b(prefers?|likes?|wants?)\b.{0,40}\b(concise|short|brief|detailed|verbose|examples?|explanations?|answers?|bullet|instructions|step by step|summar(y|ies)|diffs?)|\b(explain|answer|reply|respond)\b.{0,40}\b(step by step|in (english|german|french|spanish|italian|portuguese|dutch|japanese|chinese))\b|\b(keep (replies|answers|responses|it) (short|brief)|skip the (summary|intro|preamble)|tl;?dr)\b|^\s*(please )?(explain|tell me|show me|give me|answer|reply|respond|summari[sz]e)\b|\bwhen you('re| are)? (unsure|not sure|suggest|answer|reply)\b|\bapologi[sz]e\b/i,
    category: 'preference',
    subtype: 'communication',
    importance: 0.6,
  },
  {
    name: 'style',
    pattern:
      /\b(always use|convention|style|indent(ation)?|naming|tabs|spaces|camelCase|snake_case|PascalCase|kebab-case|functional|format(ting)?|early returns?|quotes|trailing commas?|semicolons|line length|composition over|explicit types?|descriptive names)\b/i,
    category: 'preference',
    subtype: 'style',
    importance: 0.6,
  },
  {
    name: 'tools-preference',
    pattern:
      /\b(i use|i (debug|profile|edit)\b.{0,30}\b(in|with)|my (editor|shell|terminal|ide|setup|profiler|debugger|browser)|my (go-to|favou?rite|preferred|usual)|keybindings)\b/i,
    category: 'preference',
    subtype: 'tools',
    importance: 0.55,
  },
  // Case-sensitive on purpose: a capitalised product name ("prefer Postman over curl") is a tool, "prefer composition over inheritance" is style.
  {
    name: 'tool-choice',
    pattern: /\b([Pp]refer|[Rr]ather use)\s+[A-Z][\w.-]+\s+(over|to|than|instead of)\b/,
    category: 'preference',
    subtype: 'tools',
    importance: 0.55,
  },
  {
    name: 'style-preference',
    pattern: /\b(prefer|prefers|i like|i'd rather)\b/i,
    category: 'preference',
    subtype: 'style',
    importance: 0.55,
  },
  {
    name: 'user-fact',
    pattern:
      /\b(my name is|my role|i work (on|at|as|part-time|full-time|remotely)|user is a|i maintain|(i am|i'm) (a|an|the|based in|new to)\b|(i am|i'm) in the [\w/ ]{2,40} time ?zone|my working hours|years of \w+ experience|experience (with|in)\b|^\s*i (do|lead|own|review|run|handle)\b)/i,
    category: 'semantic',
    subtype: 'user',
    importance: 0.6,
  },
  {
    name: 'domain',
    pattern:
      /\b(in (our|the|this) domain|business rules?|compliance|regulat\w+|is when|belongs to (exactly )?(one|a single)|can own|per the (policy|rules|contract)|is defined as|is considered|can never|must never|cannot exceed|by law|for tax|gdpr|in \w+ terms)\b|^\s*an? [a-z]+( [a-z]+)? (is|are|can|must|cannot|expires?|belongs?)\b/i,
    category: 'semantic',
    subtype: 'domain',
    importance: 0.55,
  },
  {
    name: 'pattern',
    pattern:
      /\b(pattern|we always|in this codebase|every (handler|component|module|service|endpoint|page|route|test)|is done (by|with|via)|(are|is) (thrown|wrapped|injected|registered|validated|mapped|split) (as|by|through|with|via|in|into)|wraps? the|injection|re-?exports?|idempotent|instead of calling|through constructor)\b|^\s*(\w+ )?(components|handlers|services|controllers|jobs|tasks|modules|classes|repositories|endpoints)\b/i,
    category: 'procedural',
    subtype: 'pattern',
    importance: 0.6,
  },
  {
    name: 'entity-fact',
    pattern:
      /\b(table|column|endpoint|schema|field|class|function|module|api|payload|header|topic|queue|enum|interface|parameter)\b.{0,60}\b(has|have|is|are|returns|contains|takes|includes|exposes|holds|stores|defaults)\b|\b[\w$.]+\(\)\s+(takes|returns|throws|accepts)\b|\b(GET|POST|PUT|PATCH|DELETE) \/\S*/i,
    category: 'semantic',
    subtype: 'entity',
    importance: 0.55,
  },
  {
    name: 'project-subject',
    pattern: /^\s*(this|the|our) (codebase|repo(sitory)?|project|monorepo)\b/i,
    category: 'semantic',
    subtype: 'project',
    importance: 0.5,
  },
  {
    name: 'environment',
    pattern:
      /\b(node(\.js)? \d|python \d|postgres(ql)? \d|redis \d|kubernetes|k8s|docker|macos|macbook|windows|linux|ubuntu|runs? on|running on|listens on|port \d+|ci uses|github actions|version \d|env(ironment)? variable|\d+ ?gb (of )?ram|vpn|deploy to|hosted on|runners?|eu-west|us-east|region)\b/i,
    category: 'semantic',
    subtype: 'environment',
    importance: 0.5,
  },
  {
    name: 'event',
    pattern:
      /\b(deployed|released|merged|shipped|migrated|upgraded|rolled back|launched|happened|went down|outage|finished|yesterday|today|last (week|month|sprint))\b/i,
    category: 'episodic',
    subtype: 'event',
    importance: 0.55,
  },
  {
    name: 'project-fact',
    pattern: /\b(project|repo|codebase|service|app|we use|uses|is built with|stack|database is)\b/i,
    category: 'semantic',
    subtype: 'project',
    importance: 0.5,
  },
];

const TEMPORAL_PATTERN =
  /\b(today|yesterday|tomorrow|tonight|now|currently|this (morning|afternoon|evening|week|sprint|month|quarter)|last (night|week|month|year|sprint|quarter)|(on|last) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d+ (days|weeks|months) ago|until|deadline|\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2})\b/i;
const EMPHASIS_PATTERN = /\b(important|critical|must|always|never|remember)\b|!{1,}/i;

/** Offline rule-based classification (seed 000 §5.3.4 without an LLM). */
export function classifyContent(
  content: string,
  fallback: { category: MemoryCategory; subtype: MemorySubtype } = { category: 'episodic', subtype: 'conversation' },
): Classification {
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
const EXPLICIT_REMEMBER =
  /\b(remember|don'?t forget|do not forget|keep in mind|make a note|note that|for future reference)\b/i;
/** Acknowledgements that carry nothing to remember. */
const TRIVIAL =
  /^\s*(\w+:\s*)?(ok(ay)?|thanks?( you)?|thx|sure|yes|no|yep|nope|got it|done|cool|great|nice|sounds good|lgtm|hi|hello|hey)[.!]*\s*$/i;

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
