import { MemoryError } from '../domain/errors.ts';
import {
  accessibleLayers,
  layerPrecedence,
  type LayerIdentifiers,
  type MemoryLayer,
  requireLayer,
} from '../domain/layers.ts';
import type { LayerDefaults } from '../coreDeps.ts';
import { identifiersFrom, type LayerScope, scopeFor } from './layerScope.ts';

/**
 * The identifiers a call acts with: what it passed, completed by the configured defaults
 * (team, org, company, agent). A passed value always wins over a default.
 */
export function withLayerDefaults(ids: LayerIdentifiers, defaults: LayerDefaults): LayerIdentifiers {
  const merged: LayerIdentifiers = { ...ids };
  for (const field of ['agent_id', 'team_id', 'org_id', 'company_id'] as const) {
    if (merged[field] === undefined && defaults[field]) merged[field] = defaults[field];
  }
  return merged;
}

/**
 * The scopes a search reads, most specific first (seed 001 Search Memory). Without `layers`,
 * every layer the identifiers open (getAccessibleLayers); a layer asked for without its
 * identifiers is an error, never silently skipped, so a caller cannot mistake "not searched"
 * for "nothing there".
 */
export function readScopes(layers: readonly unknown[] | undefined, ids: LayerIdentifiers): LayerScope[] {
  if (layers !== undefined && (!Array.isArray(layers) || layers.length === 0)) {
    throw new MemoryError(
      'INVALID_INPUT',
      'layers must be a non-empty list of layers; omit it to search every layer you have identifiers for.',
      {
        details: { field: 'layers' },
      },
    );
  }
  const chosen: MemoryLayer[] =
    layers === undefined ? accessibleLayers(ids) : [...new Set(layers.map((layer) => requireLayer(layer, 'layers')))];
  chosen.sort((a, b) => layerPrecedence(a) - layerPrecedence(b));
  return chosen.map((layer) => scopeFor(layer, ids));
}

/** The scopes a recall or context call reads: its identifiers, the project in effect and the configured defaults. */
export function callScopes(
  input: { layers?: readonly unknown[] } & Partial<Record<keyof LayerIdentifiers, unknown>>,
  userId: string,
  projectId: string | null | undefined,
  defaults: LayerDefaults,
): LayerScope[] {
  return readScopes(
    input.layers,
    withLayerDefaults(identifiersFrom({ ...input, user_id: userId, project_id: projectId ?? undefined }), defaults),
  );
}
