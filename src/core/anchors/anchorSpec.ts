import { MemoryError } from '../domain/errors.ts';
import type { AnchorInput } from './anchorModel.ts';

const LINES = /^(.*):(\d+)(?:-(\d+))?$/;

/**
 * An anchor written as one string, the form agents pass (a short field keeps every tool listing
 * small): `path#symbol`, `path:start-end`, `path:line`, or `path#symbol:start-end`.
 */
export function parseAnchorSpec(spec: string): AnchorInput {
  if (typeof spec !== 'string' || spec.trim() === '') throw invalid(spec);
  let rest = spec.trim();
  let lines: AnchorInput['lines'];
  const ranged = LINES.exec(rest);
  if (ranged) {
    const start = Number(ranged[2]);
    lines = { start, end: ranged[3] === undefined ? start : Number(ranged[3]) };
    rest = ranged[1];
  }
  const hash = rest.lastIndexOf('#');
  const path = hash >= 0 ? rest.slice(0, hash) : rest;
  const symbol = hash >= 0 ? rest.slice(hash + 1) : undefined;
  if (path === '' || symbol === '' || (symbol === undefined && lines === undefined)) throw invalid(spec);
  return { path, ...(symbol !== undefined ? { symbol } : {}), ...(lines ? { lines } : {}) };
}

function invalid(spec: unknown): MemoryError {
  return new MemoryError('INVALID_INPUT', `anchors: "${String(spec)}" is not "path#symbol" or "path:start-end".`, {
    details: { field: 'anchors' },
  });
}
