/**
 * A question that names a time the memories hold asks what happened then ("What physical
 * transformation did Nate undergo in April 2022?", "Was the first half of September 2022 a good
 * month for Nate?"). Its other words are often the kind of answer ("transformation", "good
 * month"), which the memory of that time does not write ("Dyed my hair last week"), so no
 * candidate may reach the relevance floor although memory holds the time asked about. Then the
 * answer is not empty: the candidates covering the window that share a word of the question go
 * back, marked partial. A memory of the window that shares no word is not returned on its time
 * alone, and a window no memory is in changes nothing (nothing carries the signal "time").
 */
import type { RankedCandidate } from './scoredMemory.ts';

/** A candidate that covers the question's window and matches one of its words itself. */
export function answersHeldWindow(candidate: RankedCandidate): boolean {
  return candidate.breakdown.signals.includes('time') && candidate.matchedTerms.length > 0;
}
