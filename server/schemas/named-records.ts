// The records that name a user, a line clearance or a device, counted by kind. They are GMP
// evidence: an object they name is never deleted (409), only deactivated or set inactive. The
// lists send the counts (`namedIn`), so the web app says so on the card's Delete before it is
// clicked (src/lib/user-management.ts, src/features/admin-dashboard/).
import { type Static, Type } from 'typebox';

/** Each kind's noun, one and more, as the refusals and the cards say them; in the order said. */
export const RECORD_NOUNS = {
  inspections: ['inspection', 'inspections'],
  videos: ['video', 'videos'],
  signatures: ['signature', 'signatures'],
  dispositions: ['detection disposition', 'detection dispositions'],
  deviceRegistrations: ['device registration', 'device registrations'],
} as const;
export type RecordKind = keyof typeof RECORD_NOUNS;
export type RecordCounts = Partial<Record<RecordKind, number>>;

const Count = Type.Integer({ minimum: 0 });
const sentTo = 'Sent only to those who may delete it (and only in the list).';

/** What names a user: who performed, verified, decided or registered must stay known. */
export const UserNamedIn = Type.Object(
  {
    inspections: Count,
    videos: Count,
    signatures: Count,
    dispositions: Count,
    deviceRegistrations: Count,
  },
  {
    description: `How many records name the user (an inspection as operator or reviewer, a video, a signature, a detection disposition, a device registration); any one refuses its deletion (409: deactivate instead). ${sentTo}`,
  },
);
export type UserNamedIn = Static<typeof UserNamedIn>;

export const LineNamedIn = Type.Object(
  { inspections: Count, videos: Count },
  {
    description: `How many inspections and videos name the line; any one refuses its deletion (409: set it inactive instead). ${sentTo}`,
  },
);
export type LineNamedIn = Static<typeof LineNamedIn>;

export const DeviceNamedIn = Type.Object(
  { videos: Count },
  {
    description: `How many videos the device recorded; any one refuses its deletion (409: set it inactive instead). ${sentTo}`,
  },
);
export type DeviceNamedIn = Static<typeof DeviceNamedIn>;

/** 'a', 'a and b', 'a, b and c'. */
export const inWords = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const namingKinds = (counts: RecordCounts) =>
  (Object.keys(RECORD_NOUNS) as RecordKind[]).filter((kind) => (counts[kind] ?? 0) > 0);

/** Whether any record names the object: then it is never deleted. */
export const isNamed = (counts: RecordCounts) => namingKinds(counts).length > 0;

/** The kinds of record that name the object, as a refusal says them ('inspections and videos'); '' for none. */
export const kindsInWords = (counts: RecordCounts) =>
  inWords(namingKinds(counts).map((kind) => RECORD_NOUNS[kind][1]));

/** The counts, as a card says them ('3 inspections and 1 video'); '' when no record names it. */
export const countsInWords = (counts: RecordCounts) =>
  inWords(
    namingKinds(counts).map((kind) => {
      const n = counts[kind] ?? 0;
      return `${n} ${RECORD_NOUNS[kind][n === 1 ? 0 : 1]}`;
    }),
  );

/** Why a card's Delete is unavailable for a line records name (its status can retire it). */
export const lineNamedIn = (records: string) =>
  `Has ${records}: set its status to inactive instead`;
/** The same for a device that recorded videos. */
export const deviceNamedIn = (records: string) =>
  `Recorded ${records}: set its status to inactive instead`;

/** What `say` makes of the counts ('Named in 3 inspections: …'), or null when no record names it. */
export function namedBlocker(
  counts: RecordCounts | undefined,
  say: (records: string) => string,
): string | null {
  const records = countsInWords(counts ?? {});
  return records ? say(records) : null;
}
