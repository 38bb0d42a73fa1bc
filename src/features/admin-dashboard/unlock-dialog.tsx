import type { RefObject } from 'react';
import { MIN_REASON_WORDS } from '../../../server/schemas/review-notes.ts';
import { ReasonDialog } from '../../components/reason-dialog.tsx';
import { unlockUser } from './api/unlock-user.ts';
import { adminStrings as s } from './strings.ts';

export interface UnlockDialogProps {
  account: { id: string; name: string };
  /** After the unlock, or a refusal that reloading answers (the account gone meanwhile). */
  onDone: () => void;
  onClose: () => void;
  /** Where focus goes on close when the Unlock pressed went with the lock. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * Asks why a lock is lifted before it expires (EU GMP Annex 11 §10, as every admin change): the
 * reason goes to the 'account.unlocked' entry of the trail.
 */
export function UnlockDialog({ account, onDone, onClose, returnFocusTo }: UnlockDialogProps) {
  return (
    <ReasonDialog
      title={s.unlockTitle}
      subject={account.name}
      label="Reason (required)"
      hint={`At least ${MIN_REASON_WORDS} different words, e.g. how the user's identity was confirmed. It is kept with the unlock in the audit trail.`}
      missing={`Please give the reason for unlocking this account, in at least ${MIN_REASON_WORDS} different words`}
      submitLabel={s.unlock}
      act={(reason) => unlockUser(account.id, reason)}
      success={s.userUnlocked}
      failure={s.unlockFailed}
      onDone={onDone}
      onClose={onClose}
      returnFocusTo={returnFocusTo}
    />
  );
}
