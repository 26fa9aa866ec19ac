import { MEMORY_LAYERS, REQUIRED_IDENTIFIERS } from '../core/domain/layers.ts';
import { LIMITS } from '../core/validation.ts';
import { MCP_IMPLEMENTATION_NAME, SERVER_VERSION } from '../mcp/createMcpServer.ts';
import type { ServerContext } from '../mcp/serverContext.ts';
import { MAX_BATCH_OPERATIONS } from './batch.ts';
import { IDENTIFIER_NAMES } from './knowledgeEntry.ts';

export const OPENSPEC_BASE = '/openspec/v1/knowledge';

/** GET /openspec/v1/knowledge: what this provider is and can do (seed 001 Discovery). */
export function discovery(context: ServerContext): Record<string, unknown> {
  const wireName = new Map(IDENTIFIER_NAMES.map(([wire, core]) => [core, wire]));
  return {
    protocol: 'openspec-knowledge-provider',
    protocolVersion: '1.0.0',
    provider: { name: MCP_IMPLEMENTATION_NAME, version: SERVER_VERSION },
    layers: MEMORY_LAYERS,
    layerRequirements: Object.fromEntries(
      MEMORY_LAYERS.map((layer) => [layer, REQUIRED_IDENTIFIERS[layer].map((field) => wireName.get(field))]),
    ),
    boundUser: context.defaultUserId ?? null,
    capabilities: {
      semanticSearch: context.core.embeddingModel !== null,
      keywordSearch: true,
      metadataFilter: ['tags', 'sourceType', 'hasKnowledgePointer', 'custom'],
      batch: { maxOperations: MAX_BATCH_OPERATIONS, atomic: false },
      stream: { format: 'text/event-stream', events: ['ready', 'change'] },
      deletion: 'soft',
    },
    limits: { contentBytes: LIMITS.contentBytes, queryChars: LIMITS.queryChars, queryLimit: 100 },
    endpoints: {
      discovery: `GET ${OPENSPEC_BASE}`,
      query: `POST ${OPENSPEC_BASE}/query`,
      create: `POST ${OPENSPEC_BASE}/create`,
      update: `PUT ${OPENSPEC_BASE}/{id}`,
      delete: `DELETE ${OPENSPEC_BASE}/{id}`,
      batch: `POST ${OPENSPEC_BASE}/batch`,
      stream: `GET ${OPENSPEC_BASE}/stream`,
      metadata: `GET ${OPENSPEC_BASE}/{id}/metadata`,
    },
    errorCodes: [
      'INVALID_LAYER',
      'MISSING_IDENTIFIER',
      'MEMORY_NOT_FOUND',
      'CONTENT_TOO_LONG',
      'QUERY_TOO_LONG',
      'EMBEDDING_FAILED',
      'PROVIDER_ERROR',
      'RATE_LIMITED',
      'UNAUTHORIZED',
      'CONFIGURATION_ERROR',
      'INVALID_INPUT',
    ],
  };
}
