// What the operator types about a recording (product and batch, notes), checked by the server's
// rules (server/schemas/inspections.ts: each product/batch field NonBlank(200), notes at most 2000
// characters) before anything is recorded, so a recording is never refused at upload for them.
import { isBlank } from '../../../server/schemas/blank.ts';
import { writtenOut } from '../../../server/schemas/text-rules.ts';
import { lengthProblem, UNSTORABLE_ALL, unstorableProblem } from '../text-rules.ts';
import type { LocalRecording } from './recording-db.ts';

export const ENTRY_KEYS = [
  'productLeaving',
  'batchLeaving',
  'productComing',
  'batchComing',
] as const;
export type EntryKey = (typeof ENTRY_KEYS)[number];

/** The server's limits, in characters as it counts them (`textLength`). */
export const ENTRY_MAX = 200;
export const NOTES_MAX = 2000;

export const entryLabels: Record<EntryKey | 'notes', string> = {
  productLeaving: 'Product leaving the line',
  batchLeaving: 'Batch leaving the line',
  productComing: 'Product coming next',
  batchComing: 'Batch coming next',
  notes: 'Operator notes',
};

/** Why the server would refuse this product/batch value, in words; null when it is fine. */
export function entryProblem(key: EntryKey, value: string): string | null {
  const label = entryLabels[key];
  if (isBlank(value)) return `${label} is required`;
  return lengthProblem(label, value, ENTRY_MAX) ?? unstorableProblem(label, value);
}

/** Why the server would refuse these notes, in words; null when they are fine. */
export function notesProblem(notes: string): string | null {
  const label = entryLabels.notes;
  return lengthProblem(label, notes, NOTES_MAX) ?? unstorableProblem(label, notes);
}

/** The server's longest QR code text (server/schemas/capture.ts). */
const CODE_MAX = 1000;

/**
 * A QR code's text as the recording keeps it: a NUL or a direction control written out as
 * '\u202e' (the server refuses them raw, and a direction control would show the code as other
 * text), and no longer than the server takes, so a printed label can never make the upload fail.
 */
export const recordableCode = (code: string) =>
  code.replace(UNSTORABLE_ALL, writtenOut).slice(0, CODE_MAX);

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
