import type { ServerContext } from './serverContext.ts';

/**
 * Input fields a server leaves out of its tool listing because it already knows their values:
 * the user it is bound to, the project of its workspace, the configured agent, and (on a bound
 * server, which opens only its configured shared layers) team, org and company. Every agent
 * request carries the tool list, so each field named there is paid for on every turn. The fields
 * are still accepted and checked when a client sends them (callerAccess.ts).
 */
export function boundIdentifiers(context: ServerContext): string[] {
  const hidden: string[] = [];
  if (context.defaultUserId !== undefined) hidden.push('user_id', 'team_id', 'org_id', 'company_id');
  if (context.core.defaultProjectId) hidden.push('project_id');
  if (context.core.layerDefaults.agent_id) hidden.push('agent_id');
  return hidden;
}
