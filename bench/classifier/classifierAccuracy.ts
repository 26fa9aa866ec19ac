import { readFileSync } from 'node:fs';
import { classifyContent } from '../../src/core/longterm/classifyContent.ts';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../../src/core/domain/taxonomy.ts';

/** One labelled developer note of test/fixtures/classifier/labelledNotes.json. */
export interface LabelledNote {
  text: string;
  category: MemoryCategory;
  subtype: string;
  split: 'tuning' | 'heldout';
}

export interface Accuracy {
  notes: number;
  /** Share of notes whose category was right. */
  category: number;
  /** Share of notes whose category and subtype were both right. */
  subtype: number;
}

export interface AccuracyReport {
  overall: Accuracy;
  byCategory: Record<MemoryCategory, Accuracy>;
  /** Misclassified notes, for tuning: what was expected and what came out. */
  misses: Array<{ text: string; expected: string; got: string; rule: string }>;
}

const FIXTURE = new URL('../../test/fixtures/classifier/labelledNotes.json', import.meta.url);

export function loadLabelledNotes(split: LabelledNote['split']): LabelledNote[] {
  const { notes } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { notes: LabelledNote[] };
  return notes.filter((note) => note.split === split);
}

/** Runs the offline classifier over the notes; accuracy per expected category. */
export function classifierAccuracy(notes: readonly LabelledNote[]): AccuracyReport {
  const tally = (list: Array<{ category: boolean; subtype: boolean }>): Accuracy => ({
    notes: list.length,
    category: list.length === 0 ? 0 : list.filter((entry) => entry.category).length / list.length,
    subtype: list.length === 0 ? 0 : list.filter((entry) => entry.subtype).length / list.length,
  });
  const results = notes.map((note) => {
    const got = classifyContent(note.text, { category: 'semantic', subtype: 'project' });
    const category = got.memory_category === note.category;
    return { note, got, category, subtype: category && got.memory_subtype === note.subtype };
  });
  const byCategory = Object.fromEntries(
    MEMORY_CATEGORIES.map((category) => [
      category,
      tally(results.filter((result) => result.note.category === category)),
    ]),
  ) as Record<MemoryCategory, Accuracy>;
  return {
    overall: tally(results),
    byCategory,
    misses: results
      .filter((result) => !result.subtype)
      .map((result) => ({
        text: result.note.text,
        expected: `${result.note.category}/${result.note.subtype}`,
        got: `${result.got.memory_category}/${result.got.memory_subtype}`,
        rule: result.got.rule,
      })),
  };
}

export function accuracyTable(report: AccuracyReport): string {
  const pct = (value: number): string => `${(value * 100).toFixed(1)}%`.padStart(7);
  const rows = [
    ...MEMORY_CATEGORIES.map((category) => [category, report.byCategory[category]] as const),
    ['overall', report.overall] as const,
  ];
  return [
    'category       notes  category  category+subtype',
    ...rows.map(
      ([name, accuracy]) =>
        `${name.padEnd(13)} ${String(accuracy.notes).padStart(6)}  ${pct(accuracy.category)}   ${pct(accuracy.subtype)}`,
    ),
  ].join('\n');
}
