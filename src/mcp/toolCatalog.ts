import { addToWorkingMemoryTool } from './tools/addToWorkingMemory.ts';
import { checkpointWorkingMemoryTool } from './tools/checkpointWorkingMemory.ts';
import { clearWorkingMemoryTool } from './tools/clearWorkingMemory.ts';
import { forgetAllUserMemoriesTool } from './tools/forgetAllUserMemories.ts';
import { forgetMemoryTool } from './tools/forgetMemory.ts';
import { getRelevantContextTool } from './tools/getRelevantContext.ts';
import { getWorkingMemoryTool } from './tools/getWorkingMemory.ts';
import { initSessionTool } from './tools/initSession.ts';
import { recallMemoriesTool } from './tools/recallMemories.ts';
import { storeMemoryTool } from './tools/storeMemory.ts';
import { updateMemoryTool } from './tools/updateMemory.ts';

/** Every tool the server exposes; its names feed the tool-set version the editor sees. */
export const TOOLS = [
  initSessionTool,
  addToWorkingMemoryTool,
  getWorkingMemoryTool,
  checkpointWorkingMemoryTool,
  clearWorkingMemoryTool,
  storeMemoryTool,
  recallMemoriesTool,
  updateMemoryTool,
  forgetMemoryTool,
  forgetAllUserMemoriesTool,
  getRelevantContextTool,
] as const;

export const TOOL_NAMES: readonly string[] = TOOLS.map((tool) => tool.name);
