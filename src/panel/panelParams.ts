import type { z } from 'zod';
import { MemoryError } from '../core/domain/errors.ts';
import type { PanelMethod, ParamsOf } from '../shared/panelProtocol.ts';
import { CONFIRM_FIELD, panelParamSchemas } from '../shared/panelSchemas.ts';

/**
 * Checks one request's params against its method's schema. Every message from the panel is
 * untrusted (a browser page or a webview can send anything), so nothing reaches a handler before
 * this; the first bad field is reported by name, as INVALID_INPUT with details.field.
 */
export function parsePanelParams<M extends PanelMethod>(method: M, raw: unknown): ParamsOf<M> {
  // A request without params is a request with none: the parameterless methods are sent that way.
  const params = raw === undefined || raw === null ? {} : raw;
  const schema: z.ZodType<ParamsOf<M>> = panelParamSchemas[method] as unknown as z.ZodType<ParamsOf<M>>;
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const field = fieldOf(issue?.path ?? []);
  if (field === CONFIRM_FIELD) {
    throw new MemoryError(
      'CONFIRMATION_REQUIRED',
      'Deleting permanently needs confirm: true; the panel asks the user first.',
      { details: { field } },
    );
  }
  throw new MemoryError('INVALID_INPUT', `${method}: ${field} ${issue?.message ?? 'is invalid'}.`, {
    details: { field },
  });
}

/** The field a user can find: "filter.tags" for a bad third tag, "params" when params is not an object. */
function fieldOf(path: readonly PropertyKey[]): string {
  const named = path.filter((segment): segment is string => typeof segment === 'string');
  return named.length === 0 ? 'params' : named.join('.');
}
