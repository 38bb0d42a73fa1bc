// Why master data (a line clearance, a user, a device, a floor plan or its configuration) is
// changed or deleted: EU GMP Annex 11 §9 and §10 ask for the reason of a change beside its old and
// new values. Optional in the API (the spec's calls send none); a reason given must be one
// (`changeReason` in audit/change-reason.ts).
import { type Static, Type } from 'typebox';

/** As long as any other note a person types (a signature's notes, an operator's notes). */
export const MAX_REASON_LENGTH = 2000;

/** The `reason` field: why the `what` is `done` ('changed', 'deleted', 'unlocked'). */
export const ChangeReason = (what: string, done: 'changed' | 'deleted' | 'unlocked') =>
  Type.Optional(
    Type.String({
      maxLength: MAX_REASON_LENGTH,
      description:
        `Why the ${what} is ${done} (at least three different words); optional. Stored as the ` +
        'reason of the audit entry.',
    }),
  );

/** A DELETE's body, which the spec's call leaves out: only the reason. */
export const DeleteReasonBody = (what: string) =>
  Type.Object({ reason: ChangeReason(what, 'deleted') });
export type DeleteReasonBody = Static<ReturnType<typeof DeleteReasonBody>>;

/** POST /api/users/{id}/unlock's body, which the spec's call leaves out: only the reason. */
export const UnlockReasonBody = Type.Object({ reason: ChangeReason('account', 'unlocked') });
export type UnlockReasonBody = Static<typeof UnlockReasonBody>;
