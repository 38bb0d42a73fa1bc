import { useState } from 'react';
import { givesReason } from '../../../server/schemas/review-notes.ts';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { videoMessages as messages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { ApiError } from '../../lib/api-client.ts';
import { failureText, runAction } from '../../lib/run-action.ts';
import { unstorableProblem } from '../../lib/text-rules.ts';
import { toastLife } from '../../stores/toasts.ts';
import { deleteAdminVideo } from './api/delete-admin-video.ts';
import { adminStrings as s } from './strings.ts';
import { deletionSummary } from './video-deletion.ts';

export interface VideoDeletionDialogProps {
  videoId: string;
  /** The video's card title (line and time), so the dialog says which video goes. */
  title: string;
  onClose(): void;
  onDeleted(): void;
}

/**
 * Asks why a video is deleted, after the browser's confirmation (spec §5), and deletes it. The
 * reason is the deletion's audit entry's reason: the server requires one for an inspection's
 * video (original GMP data); the app asks for every video, by the rule the server checks.
 */
export function VideoDeletionDialog({
  videoId,
  title,
  onClose,
  onDeleted,
}: VideoDeletionDialogProps) {
  const [reason, setReason] = useState('');
  const fields = useFieldErrors<'reason'>();

  const submit = async () => {
    fields.clear();
    if (!givesReason(reason)) {
      fields.warn('reason', s.deletionReasonMissing);
      return false;
    }
    const problem = unstorableProblem(s.deletionReason, reason);
    if (problem) {
      fields.warn('reason', problem);
      return false;
    }
    let refusal: unknown;
    const done = await runAction(
      async () => {
        try {
          return await deleteAdminVideo(videoId, reason.trim());
        } catch (error) {
          refusal = error;
          throw error;
        }
      },
      deletionSummary,
      messages.deleteFailed,
      toastLife.long,
    );
    if (done) {
      onDeleted();
      return true;
    }
    // A refusal of the reason is said at the field, which keeps what was typed.
    const said = failureText(messages.deleteFailed, refusal);
    if (said && refusal instanceof ApiError && refusal.serverMessage?.startsWith('body.reason')) {
      fields.fail('reason', said);
      return false;
    }
    // Signed evidence or gone meanwhile: trying again does not help, the toast says why.
    return refusal instanceof ApiError && (refusal.status === 409 || refusal.status === 404);
  };

  return (
    <FormDialog
      title={s.deleteVideoTitle}
      submitLabel={s.delete}
      onSubmit={submit}
      onClose={onClose}
    >
      <p>{title}</p>
      <TextField
        label={s.deletionReason}
        value={reason}
        onChange={setReason}
        rows={3}
        hint={s.deletionReasonHint}
        {...fields.textField('reason')}
      />
    </FormDialog>
  );
}
