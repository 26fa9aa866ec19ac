import type { AnyTool } from './defineTool.ts';
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

/**
 * The tools every agent gets: the eleven of seed 000 §7.1, plus facts (seed 002) and corrections,
 * which an agent uses in the course of a conversation. Their definitions ride along with every
 * agent request, so this set is kept small (docs/mcp.md "Tools": token cost).
 */
export const AGENT_TOOLS = [
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
  supersedeMemoryTool,
] as const;

/**
 * Lifecycle and administration: contradictions, links, maintenance, quality, analytics,
 * diagnostics, import/export, promotion. Opt-in for agents (setting fireboltMemory.mcp.adminTools, flag
 * --admin-tools); the panel has them regardless because it calls the core, not MCP.
 */
export const ADMIN_TOOLS = [
  findMemoryContradictionsTool,
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

/** Every tool the server can expose. */
export const TOOLS: readonly AnyTool[] = [...AGENT_TOOLS, ...ADMIN_TOOLS];

export const TOOL_NAMES: readonly string[] = TOOLS.map((tool) => tool.name);

/** The tools one server offers: the agent set, and the admin group when opted in. */
export function toolsOffered(options: { adminTools?: boolean }): readonly AnyTool[] {
  return options.adminTools ? TOOLS : AGENT_TOOLS;
}
