import { proxy } from 'valtio';

/**
 * Why the own-password gate shows when the reason is the password's age (PASSWORD_MAX_AGE_DAYS):
 * its days, from the sign-in or GET /api/me (`passwordExpiredAfterDays`), else null. Set with
 * `session.ownPassword`, which decides whether the gate shows at all.
 */
export const passwordExpiry = proxy<{ afterDays: number | null }>({ afterDays: null });
