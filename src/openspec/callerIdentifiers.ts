import type { LayerIdentifiers } from '../core/domain/layers.ts';
import { CallerAccess } from '../mcp/callerAccess.ts';
import type { ServerContext } from '../mcp/serverContext.ts';

/** Identifiers completed and authorised exactly as a tool call's are (bound user, configured layers). */
export function resolvedIdentifiers(context: ServerContext, ids: LayerIdentifiers): LayerIdentifiers {
  const caller = CallerAccess.resolve(context, ids.user_id);
  const resolved = caller.resolveLayerArgs(ids);
  return {
    ...resolved,
    project_id: resolved.project_id ?? undefined,
    user_id: caller.user(),
  } as LayerIdentifiers;
}
