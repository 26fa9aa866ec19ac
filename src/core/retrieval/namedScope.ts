/**
 * Near misses (issue 30): "which date library does project X use", when only project Y's date
 * library is stored, shares every topical word with Y's memory. The question names the project it
 * is about; a memory known to be about another project does not answer it, however many other
 * words it shares. Projects are what the store says they are — a memory's `metadata.project` or its
 * layer's `project_id` — never a list of names; a question names one by writing its name (in any
 * of the separators people use: "home assistant", "home-assistant", "homeassistant", or its initials
 * in capitals, "HA"), or through the project the call is bound to (the editor's workspace). A bound
 * project is an id (from the git remote), not a label: it is compared with memories' layer
 * project_id only, never with the free-form `metadata.project` an agent may write.
 *
 * The project's name is the scope of the question, not its topic: a memory of that project that
 * shares only the name ("which ORM does X use" against any other memory of X) answers nothing, so
 * the name's words count for no memory's coverage.
 */
import type { RankingFacts } from '../domain/rankingFacts.ts';
import { analyzeQuery } from '../text/analyzer.ts';

/**
 * Share of its score a memory of another project than the question names keeps, then of the lowest
 * score of the named project's matches (it ranks after all of them, and never clears the floor).
 */
export const OTHER_PROJECT_SHARE = 0.5;

/** A memory's project: its `metadata.project` when it is a non-empty string (declaredProject), else its layer's project_id. */
export function projectOf(memory: Pick<RankingFacts, 'declared_project' | 'project_id'>): string | null {
  return memory.declared_project ?? memory.project_id;
}

/** Words of a name or question, lower case, any run of separators or punctuation one space. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** True when the question writes the project's name (see the module comment for the forms). */
export function namesProject(question: string, project: string): boolean {
  const name = words(project);
  if (name.length === 0) return false;
  const asked = ` ${words(question).join(' ')} `;
  if (asked.includes(` ${name.join(' ')} `)) return true;
  if (name.length > 1 && asked.includes(` ${name.join('')} `)) return true;
  // Initials only in capitals: "HA" is Home Assistant, "ha" is a laugh.
  if (name.length > 1) {
    const initials = name.map((word) => word[0]).join('');
    return new RegExp(`(?<![\\p{L}\\p{N}])${initials.toUpperCase()}(?![\\p{L}\\p{N}])`, 'u').test(question);
  }
  return false;
}

export interface QuestionScope {
  /** The projects the question is about (lower case); empty when it names none. */
  projects: ReadonlySet<string>;
  /** Index terms of the names it wrote: scope, not topic (they count for no memory's coverage). */
  nameTerms: ReadonlySet<string>;
  /** The project is the call's bound project id, not a name the question wrote. */
  bound: boolean;
}

export const NO_SCOPE: QuestionScope = { projects: new Set(), nameTerms: new Set(), bound: false };

/**
 * True when `word` can abbreviate the project's name: it starts the name and its letters follow in
 * the name's order ("nu" for nushell, "fin" for finance-hub, "dcr" for dotcom-rendering; a
 * word of the name, "finance", is not an abbreviation of it), the abbreviation test of Schwartz & Hearst (2003) without the parenthesis.
 * Alone this says little ("do" would abbreviate dotcom-rendering); `abbreviatedProjects` adds the store's evidence.
 */
export function abbreviates(word: string, project: string): boolean {
  const nameWords = words(project);
  const name = nameWords.join('');
  // A part of the name is not the name ("which orbit does the probe use" is not about orbit-tracker).
  if (nameWords.includes(word)) return false;
  if (word.length < 2 || word.length >= name.length || word[0] !== name[0]) return false;
  let at = 1;
  for (const letter of word.slice(1)) {
    at = name.indexOf(letter, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

let abbreviationsOn = true;

/**
 * For held-out checks only (bench/coding/projectHoldout.ts): turns the abbreviation rule off and on
 * so a check can measure it per project. Nothing in the product calls it.
 */
export function abbreviationsForEvaluation(on: boolean): void {
  abbreviationsOn = on;
}

/** What the store says about one search term: how many memories have it, and those of them among the candidates. */
export interface TermEvidence {
  /** Memories of the user that have the term (its document frequency). */
  documents: number;
  /** The projects of the candidates that have it, one entry per candidate (null: no project). */
  candidateProjects: readonly (string | null)[];
}

/**
 * The projects a question names by an abbreviation its memories use: a question word that can
 * abbreviate a project's name (`abbreviates`) and that, in this user's memories, only that
 * project's memories write — every memory that has it is a candidate, and each is the project's.
 * "which compiler release can nu code rely on" is about nushell when "nu" is a word only nushell's
 * memories use; "do" is no project when any other memory says it. No list of names or aliases:
 * the name and the store decide. Stop words are never terms, so never abbreviations.
 */
export function abbreviatedProjects(
  question: string,
  known: Iterable<string>,
  evidence: (word: string) => TermEvidence | null,
): Map<string, string[]> {
  const projects = [...new Set(known)];
  const found = new Map<string, string[]>();
  for (const word of new Set(words(question))) {
    if (!/^\p{L}+$/u.test(word)) continue;
    const candidates = projects.filter((project) => abbreviates(word, project));
    if (candidates.length === 0) continue;
    const seen = evidence(word);
    if (seen === null || seen.documents === 0 || seen.candidateProjects.length !== seen.documents) continue;
    const owners = new Set(seen.candidateProjects);
    if (owners.size !== 1) continue;
    const [owner] = owners;
    if (owner === null || !candidates.includes(owner)) continue;
    found.set(owner, [...(found.get(owner) ?? []), word]);
  }
  return found;
}

/**
 * The projects the question names among those of `known` (the candidates' projects), else the
 * bound project; the index terms of the names it wrote. `evidence` (optional) lets a question name
 * a project by an abbreviation only that project's memories use (`abbreviatedProjects`).
 */
export function questionScope(
  question: string,
  known: Iterable<string>,
  boundProject: string | null | undefined,
  evidence?: (word: string) => TermEvidence | null,
): QuestionScope {
  const knownProjects = [...new Set(known)];
  const named = knownProjects.filter((project) => namesProject(question, project));
  if (named.length === 0 && evidence && abbreviationsOn) {
    const abbreviated = abbreviatedProjects(question, knownProjects, evidence);
    if (abbreviated.size > 0)
      return {
        projects: new Set([...abbreviated.keys()].map((project) => project.toLowerCase())),
        nameTerms: new Set(
          [...abbreviated].flatMap(([project, written]) =>
            [project, ...written].flatMap((text) => analyzeQuery(text).map((term) => term.term)),
          ),
        ),
        bound: false,
      };
  }
  if (named.length > 0)
    return {
      projects: new Set(named.map((project) => project.toLowerCase())),
      nameTerms: new Set(named.flatMap((project) => analyzeQuery(project).map((term) => term.term))),
      bound: false,
    };
  if (boundProject) return { projects: new Set([boundProject.toLowerCase()]), nameTerms: new Set(), bound: true };
  return NO_SCOPE;
}

/** True when the memory is known to be about a project other than the ones the question is about. */
export function outsideScope(
  scope: QuestionScope,
  memory: Pick<RankingFacts, 'declared_project' | 'project_id'>,
): boolean {
  if (scope.projects.size === 0) return false;
  const project = scope.bound ? memory.project_id : projectOf(memory);
  return project !== null && !scope.projects.has(project.toLowerCase());
}

/**
 * Memories of another project than the question names rank after every memory of the named
 * project (or of none) that matches it at all: a developer who names the project wants its
 * memories first, however many more words another project's memory shares. Each is scaled into
 * the band below the lowest in-scope score, so their own order is kept. Nothing changes when the
 * question names no project or only other projects' memories match. Scores only: the floor has
 * already shut these memories out for callers who keep it (their gate is 0).
 */
export function rankOutsideAfterScope<T extends { score: number }>(
  scored: readonly T[],
  outside: (entry: T) => boolean,
  share: number,
): void {
  let lowestInside = Infinity;
  for (const entry of scored)
    if (!outside(entry) && entry.score > 0) lowestInside = Math.min(lowestInside, entry.score);
  if (lowestInside === Infinity) return;
  for (const entry of scored) if (outside(entry)) entry.score = lowestInside * share * entry.score;
}
