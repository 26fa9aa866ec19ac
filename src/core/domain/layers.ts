import { MemoryError } from './errors.ts';

/**
 * The seven memory layers of seed 001, most specific first. The order is the precedence used
 * when results of several layers merge: on a conflict the earlier layer wins.
 */
export const MEMORY_LAYERS = ['agent', 'user', 'session', 'project', 'team', 'org', 'company'] as const;
export type MemoryLayer = (typeof MEMORY_LAYERS)[number];

/**
 * A layer as a caller names it (a tool argument, an HTTP body): any string, checked by the core
 * with requireLayer so an unknown one fails with seed 001's INVALID_LAYER wherever it arrives.
 */
export type LayerName = string;

/** Layers shared between users; they live in a partition of their own, not in a user's. */
export const SHARED_LAYERS: readonly MemoryLayer[] = ['project', 'team', 'org', 'company'];

/** Identifiers that scope a layer (seed 001 LayerIdentifiers, in the snake_case of the MCP tools). */
export interface LayerIdentifiers {
  agent_id?: string;
  user_id?: string;
  session_id?: string;
  project_id?: string;
  team_id?: string;
  org_id?: string;
  company_id?: string;
}

export type LayerIdentifierField = keyof LayerIdentifiers;

/** Seed 001 "Layer Requirements Matrix". */
export const REQUIRED_IDENTIFIERS: Readonly<Record<MemoryLayer, readonly LayerIdentifierField[]>> = {
  agent: ['agent_id', 'user_id'],
  user: ['user_id'],
  session: ['user_id', 'session_id'],
  project: ['project_id'],
  team: ['team_id'],
  org: ['org_id'],
  company: ['company_id'],
};

/** The identifier that names one scope of the layer (the agent, the session, the team …). */
export const SCOPE_IDENTIFIER: Readonly<Record<MemoryLayer, LayerIdentifierField>> = {
  agent: 'agent_id',
  user: 'user_id',
  session: 'session_id',
  project: 'project_id',
  team: 'team_id',
  org: 'org_id',
  company: 'company_id',
};

export function isMemoryLayer(value: unknown): value is MemoryLayer {
  return typeof value === 'string' && (MEMORY_LAYERS as readonly string[]).includes(value);
}

export function requireLayer(value: unknown, field = 'layer'): MemoryLayer {
  if (!isMemoryLayer(value)) {
    throw new MemoryError(
      'INVALID_LAYER',
      `Unknown layer ${JSON.stringify(value)} in ${field}. Use one of: ${MEMORY_LAYERS.join(', ')}.`,
      { details: { field } },
    );
  }
  return value;
}

/** 1 for agent (most specific) … 7 for company. */
export function layerPrecedence(layer: MemoryLayer): number {
  return MEMORY_LAYERS.indexOf(layer) + 1;
}

/** Throws MISSING_IDENTIFIER naming every identifier the layer needs that `ids` lacks. */
export function requireLayerIdentifiers(layer: MemoryLayer, ids: LayerIdentifiers): void {
  const missing = REQUIRED_IDENTIFIERS[layer].filter((field) => !ids[field]);
  if (missing.length > 0) {
    throw new MemoryError(
      'MISSING_IDENTIFIER',
      `The ${layer} layer needs ${missing.join(' and ')}; pass ${missing.length === 1 ? 'it' : 'them'} to use that layer.`,
      {
        details: { layer, missing },
      },
    );
  }
}

/** Seed 001 getAccessibleLayers: a layer is searchable only when all its identifiers are given. Precedence order. */
export function accessibleLayers(ids: LayerIdentifiers): MemoryLayer[] {
  return MEMORY_LAYERS.filter((layer) => REQUIRED_IDENTIFIERS[layer].every((field) => Boolean(ids[field])));
}

/** Layer identifiers a core applies when a call names none (the editor's team, org and company; the agent a server speaks for). */
export type LayerDefaults = Pick<LayerIdentifiers, 'agent_id' | 'team_id' | 'org_id' | 'company_id'>;
