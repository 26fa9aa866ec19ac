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
 * The projects the question names among those of `known` (the candidates' projects), else the
 * bound project; the index terms of the names it wrote.
 */
export function questionScope(
  question: string,
  known: Iterable<string>,
  boundProject: string | null | undefined,
): QuestionScope {
  const named = [...new Set(known)].filter((project) => namesProject(question, project));
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
