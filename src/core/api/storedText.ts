/** How stored text is marked for an agent; the MCP answers' text uses it (one function, src/core/safety/neutralise.ts). */
export { defuseStoredText } from '../safety/neutralise.ts';
