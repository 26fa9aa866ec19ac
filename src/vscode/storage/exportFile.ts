import { open } from 'node:fs/promises';
import type { MemoryCore } from '../../core/memoryCore.ts';

/** What the export needs of the core: the editor's proxy to the memory process offers it as the core does. */
type ExportSource = Pick<MemoryCore, 'listMemories'>;
import { buildExport } from './exportFormat.ts';

const PAGE = 500;

export interface ExportProgress {
  written: number;
  total: number;
}

/**
 * Writes the user's export file page by page: the memories are never all in memory at once, and
 * the caller hears after every page how far it is. The file is the buildExport format; it is
 * created 0600 because it holds everything the user told their agents.
 */
export async function writeExportFile(
  core: ExportSource,
  userId: string,
  path: string,
  onProgress: (progress: ExportProgress) => void = () => {},
  isCancelled: () => boolean = () => false,
): Promise<{ count: number; cancelled: boolean }> {
  const header = JSON.stringify(buildExport(userId, []), null, 2);
  // Everything of the header up to the empty memories array, which the pages then fill.
  const opening = header.slice(0, header.lastIndexOf('[]'));
  const file = await open(path, 'w', 0o600);
  let written = 0;
  let cancelled = false;
  try {
    await file.write(`${opening}[`);
    for (let offset = 0; ; offset += PAGE) {
      if (isCancelled()) {
        cancelled = true;
        break;
      }
      const page = await core.listMemories({ filter: { user_id: userId }, sort: 'created', offset, limit: PAGE });
      const chunk = page.items.map((memory) => `${written++ === 0 ? '' : ','}\n    ${JSON.stringify(memory)}`).join('');
      if (chunk) await file.write(chunk);
      onProgress({ written, total: page.total });
      if (page.items.length < PAGE) break;
    }
    await file.write(`${written > 0 ? '\n  ' : ''}]\n}\n`);
  } finally {
    await file.close();
  }
  return { count: written, cancelled };
}
