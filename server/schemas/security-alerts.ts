import { type Static, Type } from 'typebox';
import { AuditEntry } from './audit-log.ts';

/** The last review of the alerts: the newest entry it covered, who reviewed, when (UTC). */
export const SecurityAlertsReview = Type.Object({
  throughId: Type.Integer(),
  /** The reviewer as the trail names it: the email it acted under, its name (null once deleted). */
  by: Type.Object({
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  }),
  at: Type.String({ format: 'date-time' }),
});
export type SecurityAlertsReview = Static<typeof SecurityAlertsReview>;

/** An account its failed passwords lock right now (docs/permissions.md, "Sign-in lockout"). */
export const LockedAccount = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  lockedUntil: Type.String({ format: 'date-time' }),
});
export type LockedAccount = Static<typeof LockedAccount>;

/** GET /api/security-alerts (and the answer of a review): what has not been reviewed yet. */
export const SecurityAlerts = Type.Object({
  reviewed: Type.Union([SecurityAlertsReview, Type.Null()]),
  /** Alert entries after the last review. */
  count: Type.Integer(),
  /** The newest of them (at most 20), newest first, as GET /api/audit-log answers them. */
  entries: Type.Array(AuditEntry),
  lockedAccounts: Type.Array(LockedAccount),
});
export type SecurityAlerts = Static<typeof SecurityAlerts>;

/** POST /api/security-alerts/review: the alerts up to this audit entry id are reviewed. */
export const SecurityAlertsReviewBody = Type.Object({
  throughId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export type SecurityAlertsReviewBody = Static<typeof SecurityAlertsReviewBody>;
