// What surfaces may use of the core's text analysis: the same classification and secret detection
// as the core applies on store, so an editor can warn before sending and show the category.
export { classifyContent, type Classification } from '../longterm/classifyContent.ts';
export { containsSecret, findSecrets, type SecretFinding } from '../safety/secretDetector.ts';
export { TiktokenCounter, type TokenCounter } from '../tokens/tokenCounter.ts';
