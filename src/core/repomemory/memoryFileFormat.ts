import { MemoryError } from '../domain/errors.ts';
import { categoryOfSubtype, isMemoryCategory, TAXONOMY } from '../domain/taxonomy.ts';
import { findSecrets } from '../safety/secretDetector.ts';
import {
  FACT_CATEGORIES,
  type FactCategory,
  type FactValue,
  isFactKey,
  MAX_FACT_VALUE_CHARS,
} from '../facts/factModel.ts';
import {
  FRONT_MATTER_FIELDS,
  type FrontMatterField,
  type MemoryFile,
  type MemoryFileDiagnostic,
  type MemoryFileProblem,
} from './memoryFile.ts';

/**
 * The strict reader and writer of memory files. Only the YAML subset the writer produces is
 * accepted (one `key: value` per line; lists as JSON arrays of strings, which YAML reads the same),
 * so a file means one thing to every tool that opens it, and anything else is a diagnostic with its
 * line instead of a guess.
 */

const DELIMITER = '---';
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const CONFLICT_MARKER = /^(<{7}|={7}|>{7}|\|{7})(\s|$)/;

export type ParsedMemoryFile = { ok: true; file: MemoryFile } | { ok: false; diagnostics: MemoryFileDiagnostic[] };

/** The file's text; INVALID_INPUT when a credential is in it: nothing secret is ever written to the repository. */
export function serializeMemoryFile(file: MemoryFile): string {
  const lines = [
    DELIMITER,
    `id: ${file.id}`,
    `category: ${file.category}`,
    `subtype: ${file.subtype}`,
    `tags: ${JSON.stringify(file.tags)}`,
    `anchors: ${JSON.stringify(file.anchors)}`,
    `created: ${file.created}`,
    `updated: ${file.updated}`,
    `version: ${file.version}`,
    `pinned: ${file.pinned}`,
    ...(file.fact ? [`fact: ${JSON.stringify([file.fact.category, file.fact.key, file.fact.value])}`] : []),
    DELIMITER,
  ];
  const text = `${lines.join('\n')}\n${file.body.trim()}\n`;
  const secrets = findSecrets(text);
  if (secrets.length > 0)
    throw new MemoryError(
      'INVALID_INPUT',
      `Memory ${file.id} holds a credential (${secrets[0].kind}); it is not written to the repository.`,
      {
        details: { memory_id: file.id, kinds: [...new Set(secrets.map((secret) => secret.kind))] },
      },
    );
  return text;
}

/** Reads `text` (the content of `path`); never throws: every problem is a diagnostic naming its line. */
export function parseMemoryFile(path: string, text: string): ParsedMemoryFile {
  const diagnostics: MemoryFileDiagnostic[] = [];
  const report = (line: number, code: MemoryFileProblem, message: string): void => {
    diagnostics.push({ path, line, code, message });
  };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  // Conflict markers first: a file git left mid-merge is neither side's memory.
  lines.forEach((line, index) => {
    if (CONFLICT_MARKER.test(line))
      report(
        index + 1,
        'CONFLICT_MARKERS',
        'Unresolved merge conflict: resolve it in git; the memory keeps its last good version until then.',
      );
  });
  reportSecrets(lines, report);
  if (diagnostics.length > 0) return { ok: false, diagnostics };

  if (lines[0] !== DELIMITER) {
    report(1, 'MALFORMED_FRONT_MATTER', 'A memory file starts with a "---" line, then its fields, then "---".');
    return { ok: false, diagnostics };
  }
  const end = lines.indexOf(DELIMITER, 1);
  if (end < 0) {
    report(1, 'MALFORMED_FRONT_MATTER', 'The front matter opened on line 1 is never closed by a "---" line.');
    return { ok: false, diagnostics };
  }
  const values = new Map<FrontMatterField, { value: string; line: number }>();
  for (let index = 1; index < end; index++) {
    const line = lines[index];
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([a-z_]+):(?:\s(.*))?$/.exec(line);
    if (!match) {
      report(index + 1, 'MALFORMED_FRONT_MATTER', `Expected "field: value", found "${clip(line)}".`);
      continue;
    }
    const key = match[1];
    if (!isField(key)) {
      report(index + 1, 'UNKNOWN_FIELD', `Unknown field "${key}"; the fields are ${FRONT_MATTER_FIELDS.join(', ')}.`);
      continue;
    }
    if (values.has(key)) {
      report(index + 1, 'DUPLICATE_FIELD', `"${key}" is set twice (first on line ${values.get(key)?.line}).`);
      continue;
    }
    values.set(key, { value: (match[2] ?? '').trim(), line: index + 1 });
  }
  const field = (key: FrontMatterField): { value: string; line: number } | null => {
    const found = values.get(key);
    if (!found) report(end + 1, 'MISSING_FIELD', `The front matter has no "${key}".`);
    return found ?? null;
  };
  const invalid = (at: { line: number }, message: string): void => report(at.line, 'INVALID_FIELD', message);

  const id = field('id');
  if (id && !ID_PATTERN.test(id.value)) invalid(id, 'id: letters, digits, "_" and "-" only, at most 64.');
  const category = field('category');
  if (category && !isMemoryCategory(category.value))
    invalid(category, `category: one of ${Object.keys(TAXONOMY).join(', ')}.`);
  const subtype = field('subtype');
  if (subtype && category && isMemoryCategory(category.value)) {
    const allowed = TAXONOMY[category.value] as readonly string[];
    if (!allowed.includes(subtype.value))
      invalid(subtype, `subtype "${clip(subtype.value)}" is not one of ${category.value}'s: ${allowed.join(', ')}.`);
  }
  const tags = stringList(field('tags'), 'tags', invalid);
  const anchors = stringList(field('anchors'), 'anchors', invalid);
  const created = time(field('created'), 'created', invalid);
  const updated = time(field('updated'), 'updated', invalid);
  const version = field('version');
  if (version && !/^[1-9]\d{0,8}$/.test(version.value)) invalid(version, 'version: a whole number from 1.');
  const pinned = values.get('pinned');
  if (pinned && pinned.value !== 'true' && pinned.value !== 'false') invalid(pinned, 'pinned: true or false.');
  const fact = factOf(values.get('fact'), invalid);
  if (created && updated && updated < created)
    invalid(values.get('updated') ?? { line: end + 1 }, 'updated is before created.');

  const body = lines
    .slice(end + 1)
    .join('\n')
    .trim();
  if (body === '') report(end + 2, 'EMPTY_BODY', 'The memory text (below the front matter) is empty.');
  if (diagnostics.length > 0 || !id || !category || !subtype || !version || !tags || !anchors || !created || !updated)
    return { ok: false, diagnostics };
  const subtypeValue = subtype.value;
  if (categoryOfSubtype(subtypeValue) === undefined) return { ok: false, diagnostics };
  return {
    ok: true,
    file: {
      id: id.value,
      category: category.value as MemoryFile['category'],
      subtype: subtypeValue as MemoryFile['subtype'],
      tags,
      anchors,
      created,
      updated,
      version: Number(version.value),
      pinned: pinned?.value === 'true',
      ...(fact ? { fact } : {}),
      body,
    },
  };
}

function isField(key: string): key is FrontMatterField {
  return (FRONT_MATTER_FIELDS as readonly string[]).includes(key);
}

function stringList(
  at: { value: string; line: number } | null,
  name: string,
  invalid: (at: { line: number }, message: string) => void,
): string[] | null {
  if (!at) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(at.value);
  } catch {
    // JSON.parse's own message names a column of the value, not of the file; the line is what helps.
    invalid(at, `${name}: a list of quoted strings, such as ["build", "release"].`);
    return null;
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string' && item.trim() !== '')) {
    invalid(at, `${name}: a list of non-empty quoted strings, such as ["build", "release"].`);
    return null;
  }
  return parsed as string[];
}

/** `fact: ["constraint", "node_version", "Node 24"]`: a fact category, a fact key and its value. */
function factOf(
  at: { value: string; line: number } | undefined,
  invalid: (at: { line: number }, message: string) => void,
): FactValue | null {
  if (!at) return null;
  const list = stringList(at, 'fact', invalid);
  if (!list) return null;
  const [category, key, value] = list;
  if (
    list.length !== 3 ||
    !(FACT_CATEGORIES as readonly string[]).includes(category) ||
    !isFactKey(key) ||
    value.length > MAX_FACT_VALUE_CHARS
  ) {
    invalid(
      at,
      `fact: [category, key, value], the category one of ${FACT_CATEGORIES.join(', ')}, such as ["constraint", "node_version", "Node 24"].`,
    );
    return null;
  }
  return { category: category as FactCategory, key, value };
}

function time(
  at: { value: string; line: number } | null,
  name: string,
  invalid: (at: { line: number }, message: string) => void,
): string | null {
  if (!at) return null;
  if (!ISO_TIME.test(at.value) || Number.isNaN(Date.parse(at.value))) {
    invalid(at, `${name}: a UTC time such as 2026-01-31T09:30:00.000Z.`);
    return null;
  }
  return new Date(at.value).toISOString();
}

/** A credential anywhere in the file: reported by line and kind, never echoed, and the file is not indexed. */
function reportSecrets(
  lines: string[],
  report: (line: number, code: MemoryFileProblem, message: string) => void,
): void {
  const text = lines.join('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  for (const finding of findSecrets(text)) {
    let line = starts.length - 1;
    while (line > 0 && starts[line] > finding.index) line--;
    report(
      line + 1,
      'SECRET_IN_FILE',
      `A credential (${finding.kind}) is in this file: remove it; the memory is not indexed while it is there.`,
    );
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
