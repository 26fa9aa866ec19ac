import { MemoryError } from '../core/domain/errors.ts';
import { settingId } from '../core/domain/settingIds.ts';
import type { ServerContext } from './serverContext.ts';

type LayerArgs = {
  project_id?: string | null;
  team_id?: string;
  org_id?: string;
  company_id?: string;
  agent_id?: string;
};

/** Whether a call only reads the layers it names, or writes to or deletes from them. */
export type LayerAccess = 'read' | 'write';

/**
 * Who one call acts for and which layers it may touch: the access policy of the MCP tools and the
 * OpenSpec routes, in one place. The caller is resolved once, when the call arrives (callTool, or
 * an OpenSpec request), from the server's binding and the user_id the call names; every tool
 * receives the result instead of deciding again.
 *
 * A server bound to one user (the editor, `fml serve --user`) serves that user only, grants the
 * team, org and company it was configured with and no others, acts in the project it was started
 * for and opens other projects for reading only (`--read-project`). An unbound server (a user's own
 * `fml serve`) takes any user and any layer the call names.
 */
export class CallerAccess {
  /** The user the call acts for, when known: the one it names, else the server's bound user. */
  readonly userId: string | undefined;
  /** Why the call may act for no user: it named one the bound server does not serve. */
  private readonly refusal: MemoryError | undefined;

  private readonly context: ServerContext;

  /** `named` null: the call passed a user_id that is no string, which its schema refuses; it names no one. */
  private constructor(context: ServerContext, named: string | undefined | null) {
    this.context = context;
    const bound = context.defaultUserId;
    if (bound !== undefined && typeof named === 'string' && named !== bound) {
      this.refusal = new MemoryError(
        'UNAUTHORIZED',
        `This server is bound to one user; user_id "${named}" is not it. Omit user_id to act for the bound user.`,
        { details: { field: 'user_id' } },
      );
    }
    this.userId = named === null ? undefined : (named ?? bound);
  }

  /** The access of a call naming `userId` (or none) on the server of `context`. */
  static resolve(context: ServerContext, userId: unknown): CallerAccess {
    return new CallerAccess(context, userId === undefined || typeof userId === 'string' ? userId : null);
  }

  /** The user the call acts for: the given one or the server's bound user; refused or missing is an error. */
  user(): string {
    if (this.refusal) throw this.refusal;
    if (!this.userId)
      throw new MemoryError(
        'MISSING_IDENTIFIER',
        'user_id is required: pass the id of the user whose memory this is.',
        {
          details: { field: 'user_id' },
        },
      );
    return this.userId;
  }

  /**
   * The owner a session tool checks the session against: the user the call names or the server is
   * bound to. A bound server refuses any other user; with neither, the session id alone decides.
   */
  sessionOwner(): { user_id?: string } {
    if (this.refusal) throw this.refusal;
    return this.userId === undefined ? {} : { user_id: this.userId };
  }

  /**
   * Shared-layer identifiers the call may use (see the class comment); the arguments unchanged
   * when allowed, UNAUTHORIZED naming the field when not.
   */
  authorizeLayers<T extends LayerArgs>(args: T, access: LayerAccess = 'read'): T {
    const { context } = this;
    if (context.defaultUserId === undefined) return args;
    const granted = context.core.layerDefaults;
    for (const field of ['team_id', 'org_id', 'company_id'] as const) {
      const asked = args[field];
      if (asked !== undefined && asked !== granted[field]) {
        throw new MemoryError(
          'UNAUTHORIZED',
          granted[field]
            ? `This server is configured for ${field} "${granted[field]}"; "${asked}" is not open to it. Omit ${field} to use the configured one.`
            : `This server has no ${field} configured, so that layer is closed to it. Set it in the editor settings (${settingId('layers')}) to share memories there.`,
          { details: { field } },
        );
      }
    }
    const project = args.project_id;
    if (project !== undefined && project !== null && project !== context.core.defaultProjectId) {
      const readable = access === 'read' && (context.readableProjectIds ?? []).includes(project);
      if (!readable) {
        const own = context.core.defaultProjectId;
        throw new MemoryError(
          'UNAUTHORIZED',
          own
            ? `This server acts in project "${own}"; project "${project}" is not open to it${access === 'write' ? ' for writing' : ''}. Omit project_id to use its own.`
            : `This server was started for no project, so project "${project}" is closed to it.`,
          { details: { field: 'project_id' } },
        );
      }
    }
    return args;
  }

  /**
   * Layer arguments of a call that names one memory's place: authorised, and completed with the
   * server's own identifiers (workspace project, configured team, org, company, agent) where the
   * call leaves them out.
   */
  resolveLayerArgs<T extends LayerArgs>(args: T, access: LayerAccess = 'write'): T {
    const resolved = { ...this.authorizeLayers(args, access) };
    const { core } = this.context;
    const defaults = core.layerDefaults;
    if (resolved.project_id === undefined && core.defaultProjectId) resolved.project_id = core.defaultProjectId;
    for (const field of ['agent_id', 'team_id', 'org_id', 'company_id'] as const) {
      if (resolved[field] === undefined && defaults[field]) resolved[field] = defaults[field];
    }
    return resolved;
  }
}
