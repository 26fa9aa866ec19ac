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
// Memory lifecycle (issue 7): facts, corrections, links, maintenance, quality, portability.
import { setFactTool } from './tools/setFact.ts';
import { getFactsTool } from './tools/getFacts.ts';
import { deleteFactTool } from './tools/deleteFact.ts';
import { findMemoryContradictionsTool } from './tools/findMemoryContradictions.ts';
import { supersedeMemoryTool } from './tools/supersedeMemory.ts';
import { linkMemoriesTool } from './tools/linkMemories.ts';
import { unlinkMemoriesTool } from './tools/unlinkMemories.ts';
import { getRelatedMemoriesTool } from './tools/getRelatedMemories.ts';
import { autoLinkSimilarTool } from './tools/autoLinkSimilar.ts';
import { memoryPruneTool } from './tools/memoryPrune.ts';
import { runDailyMaintenanceTool } from './tools/runDailyMaintenance.ts';
import { memoryQualityReportTool } from './tools/memoryQualityReport.ts';
import { getMemoryAnalyticsTool } from './tools/getMemoryAnalytics.ts';
import { getRecentCallsTool } from './tools/getRecentCalls.ts';
import { getRecentErrorsTool } from './tools/getRecentErrors.ts';
import { exportMemoriesTool } from './tools/exportMemories.ts';
import { importMemoriesTool } from './tools/importMemories.ts';
import { promoteMemoryTool } from './tools/promoteMemory.ts';

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
  setFactTool,
  getFactsTool,
  deleteFactTool,
  findMemoryContradictionsTool,
  supersedeMemoryTool,
  linkMemoriesTool,
  unlinkMemoriesTool,
  getRelatedMemoriesTool,
  autoLinkSimilarTool,
  memoryPruneTool,
  runDailyMaintenanceTool,
  memoryQualityReportTool,
  getMemoryAnalyticsTool,
  getRecentCallsTool,
  getRecentErrorsTool,
  exportMemoriesTool,
  importMemoriesTool,
  promoteMemoryTool,
] as const;

export const TOOL_NAMES: readonly string[] = TOOLS.map((tool) => tool.name);
