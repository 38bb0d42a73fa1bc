import { useState } from 'react';
import { givesReason } from '../../../server/schemas/review-notes.ts';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { videoMessages as messages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { ApiError } from '../../lib/api-client.ts';
import { refusesField, tryAction } from '../../lib/run-action.ts';
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
    const outcome = await tryAction(
      () => deleteAdminVideo(videoId, reason.trim()),
      deletionSummary,
      messages.deleteFailed,
      toastLife.long,
    );
    if (outcome.done) {
      onDeleted();
      return true;
    }
    const { error, said } = outcome;
    // A refusal of the reason is said at the field, which keeps what was typed.
    if (said && refusesField(error, 'body.reason')) {
      fields.fail('reason', said);
      return false;
    }
    // Signed evidence or gone meanwhile: trying again does not help, the toast says why.
    return error instanceof ApiError && (error.status === 409 || error.status === 404);
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
