import type { AnchorChecker } from '../core/anchors/anchorChecker.ts';
import type { Logger } from '../core/ports/logger.ts';
import type { MemoryCore } from '../core/memoryCore.ts';
import type { CallLog } from './callLog.ts';
import type { ShortIdRegistry } from './shortIds.ts';

/** What a server instance serves: one core, and defaults for calls that omit identity. */
export interface ServerContext {
  core: MemoryCore;
  /** When set, tools accept calls without user_id and use this one (the editor's user). */
  defaultUserId?: string;
  /**
   * Projects other than its own (core.defaultProjectId) a server bound to a user may read from;
   * it never writes to them. Unbound servers take any project.
   */
  readableProjectIds?: readonly string[];
  /** The server's recent calls and errors, read by get_recent_calls / get_recent_errors. */
  callLog?: CallLog;
  /** Offer the lifecycle and administration tools too (toolCatalog.ts ADMIN_TOOLS); off by default. */
  adminTools?: boolean;
  /** Where request failures are reported (default: stderr). */
  log?: Logger;
  /**
   * The short memory ids shown in answers' text and accepted back by the tools. Shared by the
   * sessions of one HTTP server, so an id shown in one session works in the next.
   */
  shortIds?: ShortIdRegistry;
  /**
   * The workspace of this endpoint's window, when the core itself serves none (the editor's memory
   * process serves windows of many folders): store_memory resolves agents' `anchor` in it. The
   * window's editor then checks the anchor as it does its own.
   */
  workspace?: AnchorChecker;
}
