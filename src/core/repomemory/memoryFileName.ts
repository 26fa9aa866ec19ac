import { MEMORY_FOLDER } from './memoryFile.ts';

const SLUG_WORDS = 8;
const SLUG_CHARS = 48;
const SHORT_ID_CHARS = 8;

/**
 * `.memory/<slug of the text>-<short id>.md`: readable in a pull request, stable while the text
 * stays (the name is chosen once, when the file is first written; edits keep it), and unique by the id.
 */
export function memoryFileName(id: string, text: string): string {
  return `${MEMORY_FOLDER}/${slugOf(text)}-${shortId(id)}.md`;
}

export function slugOf(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .slice(0, SLUG_WORDS);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_CHARS) break;
    slug = next;
  }
  return slug || 'memory';
}

/** The id's last characters: ids end in their random part (util/ids.ts). */
export function shortId(id: string): string {
  const plain = id.replace(/[^A-Za-z0-9]/g, '');
  return plain.slice(-SHORT_ID_CHARS).toLowerCase() || 'x';
}
