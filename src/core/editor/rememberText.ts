import type { StoreMemoryInput, StoreMemoryOutput } from '../api/longTermApi.ts';
import { MemoryError } from '../domain/errors.ts';
import type { MemoryCategory, MemorySubtype } from '../domain/taxonomy.ts';
import { classifyContent } from '../longterm/classifyContent.ts';
import { findSecrets } from '../safety/secretDetector.ts';

/** Who remembers, and where: the editor window's identity. */
export interface RememberIdentity {
  userId: string;
  sessionId: string;
  scopeProjectId: string | undefined;
}

export interface RememberedText {
  result: StoreMemoryOutput;
  classification: { memory_category: MemoryCategory; memory_subtype: MemorySubtype };
}

/** Why a text cannot be remembered as it is, or null: memories never hold credentials. */
export function secretWarning(text: string): string | null {
  const kinds = [...new Set(findSecrets(text).map((secret) => secret.kind))];
  return kinds.length > 0
    ? `This text looks like it contains a credential (${kinds.join(', ')}); remove it first: memories never hold secrets.`
    : null;
}

/**
 * Stores what the user explicitly asked to remember (Remember…, Remember Selection, @memory
 * /remember): classified offline, never below 0.6 importance since the user chose to keep it.
 */
export async function rememberText(
  core: { storeMemory(input: StoreMemoryInput): Promise<StoreMemoryOutput> },
  identity: RememberIdentity,
  content: string,
  metadata: Record<string, unknown>,
): Promise<RememberedText> {
  const text = content.trim();
  if (text === '')
    throw new MemoryError('INVALID_INPUT', 'Nothing to remember: the text is empty.', {
      details: { field: 'content' },
    });
  const warning = secretWarning(text);
  if (warning) throw new MemoryError('INVALID_INPUT', warning, { details: { field: 'content' } });
  const classification = classifyContent(text, { category: 'semantic', subtype: 'project' });
  const result = await core.storeMemory({
    user_id: identity.userId,
    content: text,
    memory_category: classification.memory_category,
    memory_subtype: classification.memory_subtype,
    importance: Math.max(0.6, classification.importance),
    source_type: 'explicit',
    session_id: identity.sessionId,
    ...(identity.scopeProjectId ? { project_id: identity.scopeProjectId } : {}),
    metadata,
  });
  return {
    result,
    classification: { memory_category: classification.memory_category, memory_subtype: classification.memory_subtype },
  };
}
