import { createHash } from 'node:crypto';
import { MemoryCore } from '../core/memoryCore.ts';
import { extractorFromEnv } from '../models/extractorFromEnv.ts';
import { enricherFromEnv } from '../models/enricherFromEnv.ts';
import { createEmbeddings, createStore } from '../runtime/createRuntime.ts';
import { nodeRepoWorkspace } from '../runtime/nodeRepoWorkspace.ts';
import { stderrLogger } from '../core/ports/logger.ts';
import type { RuntimeConfig } from '../runtime/runtimeConfig.ts';
import { SharedStore } from './sharedStore.ts';

interface CoreEntry {
  key: string;
  core: Promise<MemoryCore>;
  leases: number;
  storeKey: string;
  /** Set while no client holds the core: it closes when this fires, unless a client comes back. */
  idleClose: NodeJS.Timeout | null;
}

export interface CoreRegistryOptions {
  log: (line: string) => void;
  /** How long a core nobody uses stays open, indexes and all: a reloading window finds it warm. */
  idleCloseMs: number;
  /** Before a core closes (its MCP endpoints go with it). */
  beforeClose: (key: string) => Promise<void>;
  /** From a user's warm-up to the start of their maintenance and pending extraction; 1 s by default. */
  maintenanceDelayMs?: number;
}

/** Long enough for the recall that waited on the warm-up to answer before background work lists memories. */
const MAINTENANCE_DELAY_MS = 1_000;

/**
 * The cores of the daemon. Cores differ by what a window binds (its project, its layers); the
 * store under them, and so its indexes, is one per backend and embedding model. A core lives
 * while a client holds a lease on it.
 */
export class CoreRegistry {
  private readonly stores = new Map<string, SharedStore>();
  private readonly cores = new Map<string, CoreEntry>();
  private readonly maintainedUsers = new Set<string>();
  /** Closes of idle cores in progress: the process must not exit under them (a store saves its persisted indexes as it closes). */
  private readonly closing = new Set<Promise<void>>();

  private readonly options: CoreRegistryOptions;

  constructor(options: CoreRegistryOptions) {
    this.options = options;
  }

  get coreCount(): number {
    return this.cores.size;
  }

  get storeCount(): number {
    return this.stores.size;
  }

  /** Opens (or reuses) the core of a config and takes a lease on it; release with `release(key)`. */
  async lease(config: RuntimeConfig, userId: string | undefined): Promise<{ key: string; core: MemoryCore }> {
    const storeKey = hashOf({ backend: config.backend, embeddings: config.embeddings });
    const key = hashOf({ storeKey, project: config.defaultProjectId ?? null, layers: config.layerDefaults ?? {} });
    let entry = this.cores.get(key);
    if (entry === undefined) {
      entry = { key, storeKey, leases: 0, core: this.open(config, storeKey), idleClose: null };
      this.cores.set(key, entry);
      const failed = entry;
      failed.core.catch(() => {
        // A failed open is reported to the client that asked; the next hello tries again.
        if (this.cores.get(key) === failed) this.cores.delete(key);
      });
    }
    const opened = entry;
    entry.leases++;
    if (entry.idleClose !== null) clearTimeout(entry.idleClose);
    entry.idleClose = null;
    let core: MemoryCore;
    try {
      core = await entry.core;
    } catch (error) {
      entry.leases--;
      throw error;
    }
    if (userId !== undefined) {
      // The first recall then finds the user's index built (in slices, while other calls are served).
      const warm = core
        .warmUp(userId)
        .catch((error: unknown) =>
          this.options.log(
            `warming up the index of ${userId} failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      // Maintenance waits for the first recall: resuming pending extraction lists the user's memories
      // by tag, which on a loaded index first makes its tag sets (20 ms at 100,000 memories).
      void warm.then(() => {
        const timer = setTimeout(() => {
          if (this.cores.get(key) === opened) this.maintain(key, core, userId);
        }, this.options.maintenanceDelayMs ?? MAINTENANCE_DELAY_MS);
        timer.unref();
      });
    }
    return { key, core };
  }

  /** Gives a lease back; the last one schedules the core's close after `idleCloseMs`. */
  release(key: string): void {
    const entry = this.cores.get(key);
    if (entry === undefined) return;
    entry.leases--;
    if (entry.leases > 0) return;
    entry.idleClose = setTimeout(() => {
      entry.idleClose = null;
      if (entry.leases === 0 && this.cores.get(key) === entry) {
        const closing = this.closeEntry(entry)
          .catch((error: unknown) =>
            this.options.log(
              `closing core ${key} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            ),
          )
          .finally(() => this.closing.delete(closing));
        this.closing.add(closing);
      }
    }, this.options.idleCloseMs);
  }

  private async closeEntry(entry: CoreEntry): Promise<void> {
    const key = entry.key;
    this.cores.delete(key);
    await this.options.beforeClose(key);
    for (const marker of [...this.maintainedUsers])
      if (marker.startsWith(`${key}\0`)) this.maintainedUsers.delete(marker);
    const core = await entry.core;
    await core.close();
    const shared = this.stores.get(entry.storeKey);
    if (shared !== undefined && shared.holders === 0) this.stores.delete(entry.storeKey);
    this.options.log(`core ${key} closed (no client left)`);
  }

  async closeAll(): Promise<void> {
    const entries = [...this.cores.values()];
    this.cores.clear();
    for (const entry of entries) {
      if (entry.idleClose !== null) clearTimeout(entry.idleClose);
      let core: MemoryCore;
      try {
        core = await entry.core;
      } catch (error) {
        this.options.log(
          `core ${entry.key} had failed to open, nothing to close: ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      await core.close();
    }
    await Promise.all([...this.closing]);
    this.stores.clear();
  }

  private async open(config: RuntimeConfig, storeKey: string): Promise<MemoryCore> {
    let shared = this.stores.get(storeKey);
    if (shared === undefined) {
      shared = new SharedStore(createStore(config.backend, { localReplicaDir: config.dataDir }));
      this.stores.set(storeKey, shared);
    }
    const core = new MemoryCore({
      store: shared.view,
      embeddings: createEmbeddings(config.embeddings),
      ...(config.embeddingCheck ? { embeddingCheck: config.embeddingCheck } : {}),
      ...(config.defaultProjectId ? { defaultProjectId: config.defaultProjectId } : {}),
      ...(config.layerDefaults ? { config: { layerDefaults: config.layerDefaults } } : {}),
      // A window that shares its project memories (issue #34) has them synced here, next to the store.
      repoFiles: (workspaceDir) => nodeRepoWorkspace(workspaceDir, { logger: stderrLogger }),
    });
    await core.open();
    core.startEmbeddingBackfill();
    // Extraction of promoted working memory runs here, next to the store: the offline rules, or a model from FML_EXTRACTION_*.
    await core.startExtraction(extractorFromEnv(process.env));
    // Search keys from a model only when FML_ENRICHMENT_PROVIDER asks for one (it sends memory text).
    const enricher = enricherFromEnv(process.env);
    if (enricher) {
      core.startEnrichment(enricher);
      this.options.log(`enrichment: stored memories get search keys from ${enricher.name}`);
    }
    this.options.log(`core opened: store ${core.backendKind}, project ${config.defaultProjectId ?? '(all)'}`);
    return core;
  }

  /** Daily maintenance and pending extraction for each user a client named, once per core. */
  private maintain(key: string, core: MemoryCore, userId: string): void {
    const marker = `${key}\0${userId}`;
    if (this.maintainedUsers.has(marker)) return;
    this.maintainedUsers.add(marker);
    const users = [...this.maintainedUsers]
      .filter((entry) => entry.startsWith(`${key}\0`))
      .map((entry) => entry.slice(key.length + 1));
    core.startMaintenance({
      users: () => users,
      onReport: (report) => this.options.log(`daily maintenance: ${JSON.stringify(report)}`),
      onError: (error) =>
        this.options.log(`daily maintenance failed: ${error instanceof Error ? error.message : String(error)}`),
    });
    core.extraction
      ?.resumePending(userId)
      .catch((error: unknown) =>
        this.options.log(
          `resuming pending extraction failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}
