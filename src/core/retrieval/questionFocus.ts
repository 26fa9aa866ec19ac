/**
 * The focus of a wh-question: the words between "what" / "which" and the question's first
 * auxiliary verb ("What dish did Nate make …", "Which country was Tim visiting …", "What major
 * achievement did …"). They name the kind of thing asked for, and a memory that answers names an
 * instance of it ("coconut ice cream", "the UK", "finished my first screenplay") far more often
 * than the kind: the answer-type noun of question classification (Li and Roth, "Learning Question
 * Classifiers", 2002), found here by syntax alone, with no list of types.
 */
import { analyzeQuery } from '../text/analyzer.ts';

/** The auxiliary and modal verbs that end a wh-question's focus ("What dish *did* …"). */
const AUXILIARY = '(?:did|does|do|was|were|is|are|has|have|had|will|would|can|could|should|might|may)';
/** A word of the focus: any word but an auxiliary ("What did Nate do" has no focus). */
const WORD = `(?!${AUXILIARY}\\b)[\\p{L}\\p{N}'-]+`;
/** "what" / "which", one to three words, then an auxiliary or modal verb. */
const FOCUS = new RegExp(`^[^\\p{L}\\p{N}]*(?:what|which)\\s+((?:${WORD}\\s+){0,2}${WORD})\\s+${AUXILIARY}\\b`, 'iu');

/** Index terms of the question's focus words; empty when it has none. */
export function focusTerms(query: string): Set<string> {
  const match = FOCUS.exec(query.normalize('NFKC'));
  return new Set(match ? analyzeQuery(match[1]).map((term) => term.term) : []);
}
