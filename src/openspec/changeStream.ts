import { stderrLogger } from '../core/ports/logger.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LayerIdentifiers } from '../core/domain/layers.ts';
import { SHARED_LAYERS } from '../core/domain/layers.ts';
import { sharedPartition } from '../core/api/layerPartitions.ts';
import type { MemoryEvent } from '../core/memoryEvents.ts';
import { CallerAccess } from '../mcp/callerAccess.ts';
import type { ServerContext } from '../mcp/serverContext.ts';
import { toKnowledgeEntry } from './knowledgeEntry.ts';
import { storedTextJson } from '../core/api/storedText.ts';

const HEARTBEAT_MS = 15_000;

/** One `change` event of the stream. `entries` is absent for a purge, which leaves nothing to show. */
export interface ChangeEvent {
  change: 'created' | 'updated' | 'deleted' | 'restored' | 'purged' | 'cleared';
  ids: string[];
  entries?: ReturnType<typeof toKnowledgeEntry>[];
  at: string;
}

/**
 * GET /openspec/v1/knowledge/stream: server-sent events of changes to the memories the caller may
 * read (its own personal layers, and the shared layers its identifiers open, as query
 * parameters). The first event, `ready`, names what is watched, so a client knows every change
 * after it will arrive. Changes come from the core's event bus: everything this server writes,
 * whatever the surface (MCP, panel, OpenSpec).
 */
export class ChangeStreams {
  private readonly open = new Set<ServerResponse>();

  start(context: ServerContext, request: IncomingMessage, response: ServerResponse, ids: LayerIdentifiers): void {
    const caller = CallerAccess.resolve(context, ids.user_id);
    const userId = caller.user();
    const resolved = caller.resolveLayerArgs(ids);
    const partitions = new Map<string, string>([[userId, 'personal']]);
    for (const layer of SHARED_LAYERS) {
      const field = `${layer}_id` as keyof LayerIdentifiers;
      const id = resolved[field];
      if (typeof id === 'string' && id.length > 0) partitions.set(sharedPartition(layer, id), layer);
    }
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write(
      `retry: 3000\nevent: ready\ndata: ${JSON.stringify({ user: userId, watching: [...new Set(partitions.values())] })}\n\n`,
    );
    this.open.add(response);
    // Writes are queued so events reach the client in the order the core emitted them.
    let queue = Promise.resolve();
    const send = (event: ChangeEvent) => {
      // Change events carry the entries as stored: marked like every other body an agent reads.
      if (!response.writableEnded) response.write(`event: change\ndata: ${storedTextJson(event)}\n\n`);
    };
    const subscription = context.core.onEvent((event: MemoryEvent) => {
      if (event.type === 'user-cleared' && event.user_id === userId) {
        queue = queue.then(() => send({ change: 'cleared', ids: [], at: new Date().toISOString() }));
      }
      if (event.type !== 'memory' || !partitions.has(event.user_id)) return;
      queue = queue
        .then(async () => {
          const at = new Date().toISOString();
          if (event.change === 'purged') return send({ change: event.change, ids: event.memory_ids, at });
          const records = await context.core.getMemories(event.user_id, event.memory_ids);
          send({ change: event.change, ids: event.memory_ids, entries: records.map(toKnowledgeEntry), at });
        })
        .catch((error: unknown) => {
          // A failed lookup must not end the stream; the client still learns which ids changed.
          (context.log ?? stderrLogger).warn('OpenSpec stream could not read changed entries', error);
          send({ change: event.change, ids: event.memory_ids, at: new Date().toISOString() });
        });
    });
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const stop = () => {
      clearInterval(heartbeat);
      subscription.dispose();
      this.open.delete(response);
    };
    request.once('close', stop);
    response.once('close', stop);
  }

  /** Ends every open stream, so the HTTP server can close. */
  closeAll(): void {
    for (const response of this.open) response.end();
    this.open.clear();
  }
}
