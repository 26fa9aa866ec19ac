/**
 * How stored text is marked for an agent (issue 28.7): one function, defuseStoredText
 * (src/core/safety/neutralise.ts), used by every text an agent reads — recall and context text,
 * the JSON text of the other tools, resources and OpenSpec (storedTextJson), chat prompts.
 */
export { defuseStoredText, storedTextJson } from '../safety/neutralise.ts';
