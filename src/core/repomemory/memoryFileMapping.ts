import { anchorsOf, type AnchorInput, type CodeAnchor } from '../anchors/anchorModel.ts';
import type { MemoryRecord } from '../domain/records.ts';
import { repositoryOriginOf } from '../domain/repositoryOrigin.ts';
import { factOfMemory, type FactValue } from '../facts/factModel.ts';
import type { MemoryFile } from './memoryFile.ts';

/**
 * A project memory as its `.memory/` file says it, and the way back: which fields travel (text,
 * type, tags, anchors, pinned, times) and how anchors are written ("src/a.ts#symbol",
 * "src/a.ts:10-20", or a bare path for a whole file).
 */

/** The file a memory is written as; `version` is the sync's to set. */
export function fileOfMemory(memory: MemoryRecord, version: number): MemoryFile {
  return {
    id: memory.memory_id,
    category: memory.memory_category,
    subtype: memory.memory_subtype,
    tags: [...memory.tags],
    anchors: writtenAnchors(memory),
    created: memory.created_at,
    updated: memory.updated_at,
    version,
    pinned: memory.pinned,
    ...factField(memory),
    body: memory.content,
  };
}

/** The memory's anchors as a file names them, then those its file named that did not resolve here (kept, not lost). */
function writtenAnchors(memory: MemoryRecord): string[] {
  const resolved = anchorsOf(memory.metadata).map(anchorText);
  const unresolved = repositoryOriginOf(memory.metadata)?.unresolved_anchors ?? [];
  return [...resolved, ...unresolved.filter((anchor) => !resolved.includes(anchor))];
}

function factField(memory: MemoryRecord): { fact?: FactValue } {
  const fact = factOfMemory(memory);
  return fact ? { fact: { category: fact.category, key: fact.key, value: fact.value } } : {};
}

export function anchorText(anchor: CodeAnchor): string {
  if (anchor.symbol) return `${anchor.path}#${anchor.symbol.name}`;
  return `${anchor.path}:${anchor.lines.start}-${anchor.lines.end}`;
}

const LINES = /^(.+):(\d+)-(\d+)$/;

/** What an anchor written in a file asks for; a bare path anchors the whole file. */
export function anchorInputOf(text: string): AnchorInput | { path: string; whole_file: true } {
  const hash = text.lastIndexOf('#');
  if (hash > 0) return { path: text.slice(0, hash), symbol: text.slice(hash + 1) };
  const lines = LINES.exec(text);
  if (lines) return { path: lines[1], lines: { start: Number(lines[2]), end: Number(lines[3]) } };
  return { path: text, whole_file: true };
}
