// GET /api/reports/overview (docs/reports.md, "Line clearance overview"): how line clearance goes on
// every line of the plant, for the factory manager's and the admin's dashboard.
import { type Static, Type } from 'typebox';
import { Id } from './common.ts';
import { LineClearanceStatus } from './line-clearances.ts';
import { SignatureMeaning } from './signatures.ts';

const DateTime = Type.String({ format: 'date-time' });

/** A pending inspection waiting longer than this for its review is overdue (here and on cards). */
export const OVERDUE_AFTER_HOURS = 24;

/** The newest inspection of a line that has been signed (by start time): the line's last verdict. */
export const LastSigned = Type.Object({
  inspectionId: Id,
  status: SignatureMeaning,
  /** Null only for a record signed before signatures were kept, with no review time. */
  signedAt: Type.Union([DateTime, Type.Null()]),
  /** The name as printed when signing (the reviewer's current name for such an older record). */
  signerName: Type.Union([Type.String(), Type.Null()]),
});
export type LastSigned = Static<typeof LastSigned>;

export const LineOverview = Type.Object({
  lineClearanceId: Id,
  name: Type.String(),
  status: LineClearanceStatus,
  /** The line's LC manager (`managerId`), who signs its inspections; null for none. */
  manager: Type.Union([Type.Object({ id: Id, name: Type.String() }), Type.Null()]),
  lastSigned: Type.Union([LastSigned, Type.Null()]),
  /** Inspections waiting for a signature, whatever their age. */
  pending: Type.Integer(),
  /** Of those, the ones waiting longer than `overdueAfterHours`. */
  overdue: Type.Integer(),
  /** Since when the oldest pending one waits (its receipt, else its end, else its start); null for none. */
  oldestPendingSince: Type.Union([DateTime, Type.Null()]),
  /** Inspections started in the last `windowDays` days, and how many of them were rejected. */
  recentInspections: Type.Integer(),
  recentRejections: Type.Integer(),
});
export type LineOverview = Static<typeof LineOverview>;

export const LinesOverview = Type.Object({
  /** When the counts were made: ages and the window are measured from it. */
  asOf: DateTime,
  windowDays: Type.Integer(),
  overdueAfterHours: Type.Integer(),
  /** The lines' counts added up. */
  totals: Type.Object({
    pending: Type.Integer(),
    overdue: Type.Integer(),
    recentRejections: Type.Integer(),
  }),
  /** Active lines first, then those in maintenance or inactive; by name within each. */
  lines: Type.Array(LineOverview),
});
export type LinesOverview = Static<typeof LinesOverview>;
