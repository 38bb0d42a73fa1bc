// What the operator types about a recording (product and batch, notes), checked by the server's
// rules (server/schemas/inspections.ts: each product/batch field NonBlank(200), notes at most 2000
// characters) before anything is recorded, so a recording is never refused at upload for them.
import type { LocalRecording } from './recording-db.ts';

export const ENTRY_KEYS = [
  'productLeaving',
  'batchLeaving',
  'productComing',
  'batchComing',
] as const;
export type EntryKey = (typeof ENTRY_KEYS)[number];

/** The server's limits, in UTF-16 code units (as `maxLength` counts; never more than it allows). */
export const ENTRY_MAX = 200;
export const NOTES_MAX = 2000;

export const entryLabels: Record<EntryKey | 'notes', string> = {
  productLeaving: 'Product leaving the line',
  batchLeaving: 'Batch leaving the line',
  productComing: 'Product coming next',
  batchComing: 'Batch coming next',
  notes: 'Operator notes',
};

// Spaces of every kind, control and format characters (zero-width space, joiners, BOM, bidi
// marks), and the letters and symbols that print as nothing (Hangul fillers, braille blank).
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Z}\u115F\u1160\u2800\u3164\uFFA0]/gu;

/** True when nothing a person could read is left: only spaces or invisible characters. */
export const isBlank = (value: string) => value.replace(INVISIBLE, '') === '';

/** Why the server would refuse this product/batch value, in words; null when it is fine. */
export function entryProblem(key: EntryKey, value: string): string | null {
  const label = entryLabels[key];
  if (isBlank(value)) return `${label} is required`;
  const length = value.trim().length;
  if (length > ENTRY_MAX) return tooLong(label, ENTRY_MAX, length);
  return value.includes(NUL) ? hasNul(label) : null;
}

/** Why the server would refuse these notes, in words; null when they are fine. */
export function notesProblem(notes: string): string | null {
  const length = notes.trim().length;
  if (length > NOTES_MAX) return tooLong(entryLabels.notes, NOTES_MAX, length);
  return notes.includes(NUL) ? hasNul(entryLabels.notes) : null;
}

const NUL = '\u0000';
const tooLong = (label: string, max: number, length: number) =>
  `${label} must be at most ${max} characters (it has ${length})`;
// PostgreSQL cannot store U+0000, so the server refuses it (server/http/nul-guard.ts); it only
// arrives by pasting.
const hasNul = (label: string) => `${label} must not contain a NUL character (U+0000)`;

/**
 * The counter shown under a field: always for the notes, and for a short field once it nears its
 * limit (a batch number rarely does, and a counter under every field would crowd a phone).
 */
export function lengthHint(value: string, max: number, always = false): string | undefined {
  if (!always && value.length < max * 0.8) return undefined;
  return `${value.length} of ${max} characters`;
}

export type RecordingEntries = Pick<LocalRecording, EntryKey | 'notes'>;

/** The first problem of a stored recording's entries, for the queue to stop on before submitting. */
export function entriesProblem(entries: RecordingEntries): string | null {
  for (const key of ENTRY_KEYS) {
    const problem = entryProblem(key, entries[key]);
    if (problem) return problem;
  }
  return notesProblem(entries.notes);
}

const SERVER_FIELDS: Record<string, EntryKey | 'notes'> = {
  productLeaving: 'productLeaving',
  batchLeaving: 'batchLeaving',
  productComing: 'productComing',
  batchComing: 'batchComing',
  operatorNotes: 'notes',
};

/**
 * A submit's 400 ("body.productLeaving must not have more than 200 characters") in the operator's
 * words ("Product leaving the line must not have more than 200 characters"), and whether it is
 * about something the operator can correct on the device (`field`). Other messages pass unchanged.
 */
export function describeRefusal(message: string): {
  text: string;
  field: EntryKey | 'notes' | null;
} {
  const match = /^body\.(\w+) (.+)$/.exec(message);
  const field = match?.[1] ? SERVER_FIELDS[match[1]] : undefined;
  if (!match || !field) return { text: message, field: null };
  return { text: `${entryLabels[field]} ${match[2]}`, field };
}
