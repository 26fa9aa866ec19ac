/**
 * The LoCoMo development split (../shared/data/README.md): loading, the memory text format,
 * evidence-id normalisation and the recall@k metric. Loaded from shared/ at run time; never
 * copied into the repository or the package (CC BY-NC 4.0).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MONTHS } from '../../src/core/retrieval/timeExpressions.ts';

export interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
export interface Question {
  question: string;
  evidence: string[];
  category: number;
  answer?: unknown;
}
export interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Question[];
}
export interface SessionTurns {
  session: number;
  dateTime: string | undefined;
  turns: Turn[];
}

export const KS = [1, 5, 10, 25, 50] as const;
/** Conversations used to choose any weight or threshold; the rest is held out. */
export const TUNING = new Set(['conv-26', 'conv-30']);
export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export function loadSamples(): Sample[] {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const path = process.env.LOCOMO_PATH ?? resolve(root, '../shared/data/locomo-dev.json');
  return JSON.parse(readFileSync(path, 'utf8')) as Sample[];
}

export function sessionsOf(sample: Sample): SessionTurns[] {
  return Object.keys(sample.conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match) => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b)
    .map((session) => ({
      session,
      dateTime: sample.conversation[`session_${session}_date_time`] as string | undefined,
      turns: sample.conversation[`session_${session}`] as Turn[],
    }));
}

export function turnsOf(sample: Sample): Turn[] {
  return sessionsOf(sample).flatMap((session) => session.turns);
}

/** The README's memory text format. */
export function formatTurn(turn: Turn): string {
  const text = `${turn.speaker} said, "${turn.text}"`;
  return turn.blip_caption ? `${text} and shared ${turn.blip_caption}` : text;
}

/** Split on ; , whitespace, drop parentheses, re-print D:?<session>:<turn> as integers. */
export function normaliseEvidence(evidence: readonly string[]): string[] {
  return evidence
    .flatMap((entry) => entry.replace(/[()]/g, '').split(/[;,\s]+/))
    .filter((id) => id.length > 0)
    .map((id) => {
      const match = /^D:?(\d+):(\d+)$/.exec(id);
      return match ? `D${Number(match[1])}:${Number(match[2])}` : id;
    });
}

/** Share of the evidence found in the top k of each cut; a question without evidence counts 1. */
export function recallAtKs(ranked: readonly string[], evidenceIds: readonly string[]): number[] {
  const evidence = normaliseEvidence(evidenceIds);
  return KS.map((k) => {
    if (evidence.length === 0) return 1;
    const top = new Set(ranked.slice(0, k).map((id) => normaliseEvidence([id])[0]));
    return evidence.filter((id) => top.has(id)).length / evidence.length;
  });
}

/** "1:56 pm on 8 May, 2023" -> ISO: when the conversation happened, as a client would record it. */
export function parseSessionTime(text: string): string {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!match) throw new Error(`Unrecognised LoCoMo session time "${text}"`);
  const [, hour, minute, half, day, month, year] = match;
  const monthIndex = MONTHS.indexOf(month.toLowerCase());
  const hours = (Number(hour) % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(year), monthIndex, Number(day), hours, Number(minute))).toISOString();
}

/** One dialog turn as the quality benchmarks store it (data/README.md): its session's date as event_time, dia_id in metadata. */
export function turnMemory(userId: string, session: SessionTurns, turn: Turn) {
  return {
    user_id: userId,
    content: formatTurn(turn),
    memory_category: 'episodic' as const,
    memory_subtype: 'conversation' as const,
    ...(session.dateTime ? { event_time: parseSessionTime(session.dateTime) } : {}),
    metadata: { dia_id: turn.dia_id, speaker: turn.speaker, session: session.session },
  };
}
