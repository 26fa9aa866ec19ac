import type { InitSessionInput } from '../api/workingMemoryApi.ts';
import { MemoryError } from '../domain/errors.ts';
import type { EvictionPolicy, SessionRecord } from '../domain/records.ts';
import { EVICTION_POLICIES } from '../domain/recordChoices.ts';
import { LIMITS, requireId, requirePositiveInt } from '../validation.ts';

/** init_session's budget and policy, checked before the session's lock is taken. */
export interface SessionSettings {
  maxTokens: number;
  /** Undefined: a resumed session keeps its policy, a new one takes the configured default. */
  policy: EvictionPolicy | undefined;
}

export function requireSessionSettings(input: InitSessionInput, defaultMaxTokens: number): SessionSettings {
  const maxTokens = requirePositiveInt(
    input.config?.max_tokens,
    'config.max_tokens',
    defaultMaxTokens,
    LIMITS.maxTokens,
  );
  const policy = input.config?.eviction_policy;
  if (policy !== undefined && !EVICTION_POLICIES.includes(policy)) {
    throw new MemoryError('INVALID_INPUT', `config.eviction_policy must be one of ${EVICTION_POLICIES.join(', ')}.`, {
      details: { field: 'config.eviction_policy' },
    });
  }
  return { maxTokens, policy };
}

/** The session init_session writes: the existing one resumed with the call's settings, or a new, empty one. */
export function sessionToOpen(
  existing: SessionRecord | null,
  input: InitSessionInput,
  opening: { sessionId: string; userId: string; settings: SessionSettings; now: string; defaultPolicy: EvictionPolicy },
): SessionRecord {
  const { sessionId, userId, settings, now, defaultPolicy } = opening;
  return existing
    ? {
        ...existing,
        max_tokens: input.config?.max_tokens ?? existing.max_tokens,
        eviction_policy: settings.policy ?? existing.eviction_policy,
        project_id: input.project_id ?? existing.project_id,
        last_activity: now,
      }
    : {
        session_id: sessionId,
        user_id: userId,
        org_id: input.org_id ? requireId(input.org_id, 'org_id') : null,
        project_id: input.project_id ? requireId(input.project_id, 'project_id') : null,
        total_tokens: 0,
        max_tokens: settings.maxTokens,
        eviction_policy: settings.policy ?? defaultPolicy,
        next_sequence: 1,
        created_at: now,
        last_activity: now,
        expires_at: null,
        config: {},
      };
}

/** Another user's session is reported exactly like a missing one. */
export function sessionNotFound(sessionId: string): MemoryError {
  return new MemoryError(
    'SESSION_NOT_FOUND',
    `No session ${sessionId} exists for this user; call init_session first.`,
    { details: { session_id: sessionId } },
  );
}
