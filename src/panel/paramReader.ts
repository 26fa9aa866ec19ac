import { MemoryError } from '../core/domain/errors.ts';

/**
 * Reads one request's params field by field. Every message from the panel is untrusted (a browser
 * page or a webview can send anything), so each field is checked before it reaches the core, and
 * a bad one is reported by name.
 */
export class ParamReader {
  private readonly params: Record<string, unknown>;
  private readonly method: string;

  constructor(method: string, params: unknown) {
    this.method = method;
    if (params === undefined || params === null) this.params = {};
    else if (typeof params === 'object' && !Array.isArray(params)) this.params = params as Record<string, unknown>;
    else throw this.fail('params', 'must be an object');
  }

  string(field: string): string {
    const value = this.params[field];
    if (typeof value !== 'string') throw this.fail(field, 'must be a string');
    return value;
  }

  optionalString(field: string): string | undefined {
    return this.params[field] === undefined ? undefined : this.string(field);
  }

  boolean(field: string): boolean {
    const value = this.params[field];
    if (typeof value !== 'boolean') throw this.fail(field, 'must be true or false');
    return value;
  }

  optionalBoolean(field: string): boolean | undefined {
    return this.params[field] === undefined ? undefined : this.boolean(field);
  }

  integer(field: string, min: number, max: number): number {
    const value = this.params[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw this.fail(field, `must be a whole number from ${min} to ${max}`);
    return value;
  }

  optionalNumber(field: string, min: number, max: number): number | undefined {
    const value = this.params[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw this.fail(field, `must be a number from ${min} to ${max}`);
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[]): T {
    const value = this.params[field];
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw this.fail(field, `must be one of ${allowed.join(', ')}`);
    return value as T;
  }

  optionalStringList(field: string, maxItems = 200): string[] | undefined {
    const value = this.params[field];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length > maxItems || !value.every((item) => typeof item === 'string')) {
      throw this.fail(field, `must be a list of at most ${maxItems} strings`);
    }
    return value as string[];
  }

  stringList(field: string, maxItems = 1000): string[] {
    const value = this.optionalStringList(field, maxItems);
    if (value === undefined || value.length === 0) throw this.fail(field, 'must be a non-empty list of strings');
    return value;
  }

  object(field: string): ParamReader {
    return new ParamReader(`${this.method}.${field}`, this.params[field]);
  }

  private fail(field: string, rule: string): MemoryError {
    return new MemoryError('INVALID_INPUT', `${this.method}: ${field} ${rule}.`, { details: { field } });
  }
}
