/**
 * English function words that carry no topic. The list follows the Snowball English
 * stop list with contractions written apostrophe-free (the tokenizer drops apostrophes),
 * plus question words, since queries are often phrased as questions.
 * "id", "ill", "wed" and "well" stay indexed: as contractions they are noise, but as words
 * (an id column, being ill, getting wed) they are content.
 * Negations ("not", "no", "never") are deliberately kept: "not working" is a debugging signal.
 */
const WORDS = `
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just let lets me
more most my myself of off on once only or other ought our ours ourselves out over own same she
should so some such than that thats the their theirs them themselves then there theres these they
this those through to too under until up very was we were what whats when whens where wheres which
while who whos whom why whys with would us you your yours yourself yourselves
im ive youre youve youd youll hes shes weve theyre theyve theyd theyll
isnt arent wasnt werent hasnt havent hadnt doesnt dont didnt wont wouldnt shant shouldnt cant cannot
couldnt mustnt heres hows
also yet s t d ll m re ve
`;

export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter((word) => word.length > 0));

export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
