import { NOT_YOUR_USER_ID } from '../../server/schemas/signer-user-id.ts';
import { ApiError, api, segment } from '../lib/api-client.ts';
import type { Inspection } from '../types/api.ts';

export type ReviewDecision = 'approve' | 'reject';

/**
 * What a 404 to a reviewer's call means: the record left the caller's scope (another manager's
 * line now) or was deleted since the page loaded it; the server does not say which.
 */
export const NO_LONGER_REVIEWABLE =
  'This inspection is no longer among those you may review (it may have been moved to another manager, or deleted). Reload to see where things stand.';

/**
 * A reviewer's call whose 404 'Inspection not found' says so in words a reviewer understands
 * (`NO_LONGER_REVIEWABLE`); the status stays, so the caller reloads as after a 409.
 */
export async function asReviewer<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status === 404 &&
      error.serverMessage === 'Inspection not found'
    ) {
      throw new ApiError(404, NO_LONGER_REVIEWABLE, NO_LONGER_REVIEWABLE, error.statusText);
    }
    throw error;
  }
}

/**
 * Whether a reviewer's call was refused because the page shows the record as it no longer is: it
 * changed (409: signed, or decided on, by someone else meanwhile) or left the caller's scope (404).
 * The page reloads it.
 */
export const refusedAsOutdated = (error: unknown) =>
  error instanceof ApiError && (error.status === 409 || error.status === 404);

/** Whether the server refused the user ID entered as not the signer's own (403). */
export const refusedUserId = (error: unknown) =>
  error instanceof ApiError && error.serverMessage === NOT_YOUR_USER_ID;

/** The two components of an electronic signature (21 CFR 11.200(a)(1)), entered at each signing. */
export interface SignerComponents {
  /** The signer's user ID: the email it signs in with. */
  userId: string;
  password: string;
}

/**
 * Spec §7 PATCH /api/inspections/{id}/approve or /reject: the reviewer's notes, plus the user ID
 * and password that make the call an electronic signature, and the hash of the report the signer
 * reviewed: a record changed since is not signed (409 saying what changed; docs/signatures.md).
 */
export const signInspection = (
  id: string,
  decision: ReviewDecision,
  notes: string,
  { userId, password }: SignerComponents,
  recordHash: string | undefined,
) =>
  asReviewer(
    api.patch<Inspection>(`/api/inspections/${segment(id)}/${decision}`, {
      notes,
      userId,
      password,
      recordHash,
    }),
  );
