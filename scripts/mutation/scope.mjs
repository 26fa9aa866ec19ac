// Resolves a module's `mutate` entries to what Stryker takes. An entry is a file, a file with a
// line range (`file:10-20`), or a file and a function or method name (`file#forget`): the name is
// looked up in the source at run time, so the scope follows the code when lines move. A name that
// is no longer found fails the run instead of silently mutating nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export class MutationScopeError extends Error {
  constructor(message) {
    super(message);
    this.name = 'MutationScopeError';
    this.code = 'MUTATION_SCOPE_NOT_FOUND';
  }
}

export function resolveMutate(entries, root) {
  return entries.map((entry) => {
    const hash = entry.indexOf('#');
    if (hash === -1) return entry;
    const file = entry.slice(0, hash);
    const name = entry.slice(hash + 1);
    const [start, end] = functionLines(readFileSync(join(root, file), 'utf8'), name, file);
    return `${file}:${start}-${end}`;
  });
}

/** First and last line (1-based) of the declaration of `name`, found by matching its braces. */
export function functionLines(source, name, file = 'source') {
  const lines = source.split('\n');
  const declaration = new RegExp(
    `^\\s*(?:export\\s+)?(?:private\\s+|public\\s+|static\\s+)*(?:async\\s+)?(?:function\\s+)?${name.replace(/[$]/g, '\\$')}\\s*[(<]`,
  );
  const start = lines.findIndex((line) => declaration.test(line));
  if (start === -1)
    throw new MutationScopeError(
      `${file}: no function or method "${name}" to mutate; update scripts/mutation/modules.mjs`,
    );
  let depth = 0;
  let opened = false;
  for (let index = start; index < lines.length; index++) {
    for (const char of lines[index]) {
      if (char === '{') {
        depth++;
        opened = true;
      } else if (char === '}') {
        depth--;
      }
    }
    if (opened && depth === 0) return [start + 1, index + 1];
  }
  throw new MutationScopeError(`${file}: the body of "${name}" does not close`);
}
