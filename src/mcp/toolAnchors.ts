import { ANCHORS_FIELD, type AnchorInput } from '../core/anchors/anchorModel.ts';
import { parseAnchorSpec } from '../core/anchors/anchorSpec.ts';
import type { ServerContext } from './serverContext.ts';

/**
 * What store_memory passes the core for an agent's `anchor`: the spec itself for the core to
 * resolve in its own workspace (fml serve --workspace), or, on an endpoint bound to a window's
 * workspace, the anchor resolved here and added to `metadata.anchors`, as the editor adds those of
 * a selection (the core stores resolved anchors without a workspace of its own).
 */
export async function anchorArgs(
  context: Pick<ServerContext, 'workspace'>,
  anchor: string | undefined,
  metadata: Record<string, unknown> | undefined,
): Promise<{ anchors?: AnchorInput[]; metadata?: Record<string, unknown> }> {
  if (anchor === undefined) return {};
  const spec = parseAnchorSpec(anchor);
  if (!context.workspace) return { anchors: [spec] };
  const resolved = await context.workspace.create(spec);
  const given: unknown = metadata?.[ANCHORS_FIELD];
  // Anchors the agent already put in metadata stay; a malformed value is left for the core to refuse with its own message.
  const anchors = given === undefined ? [resolved] : Array.isArray(given) ? [...(given as unknown[]), resolved] : given;
  return { metadata: { ...metadata, [ANCHORS_FIELD]: anchors } };
}
