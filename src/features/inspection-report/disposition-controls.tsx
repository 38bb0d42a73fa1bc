import { useId, useState } from 'react';
import { givesReason } from '../../../server/schemas/review-notes.ts';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { unstorableProblem } from '../../lib/text-rules.ts';
import type { ReportDetection } from '../../types/api.ts';
import { reportStrings as s } from './strings.ts';
import { type Dispositions, detectionStamp, objectsText } from './use-disposition.ts';

export interface DispositionButtonsProps {
  dispositions: Dispositions;
  detection: ReportDetection;
  /** What the buttons act on, in their names ('Confirm 14.792 s'): each page part names its own. */
  subject: string;
}

/** Confirm and Dismiss for one detection, for whoever may decide on it (none on a signed record). */
export function DispositionButtons({ dispositions, detection, subject }: DispositionButtonsProps) {
  if (!dispositions.editable) return null;
  // A screen reader says which decision is taken (aria-pressed); the page shows it in words.
  const taken = detection.disposition?.disposition;
  return (
    <>
      <button
        type="button"
        className="btn btn-success"
        aria-label={`${s.confirm} ${subject}`}
        aria-pressed={taken === 'confirmed'}
        aria-disabled={dispositions.confirming(detection) || undefined}
        onClick={() => void dispositions.confirm(detection)}
      >
        {s.confirm}
      </button>
      <button
        type="button"
        className="btn btn-danger"
        aria-label={`${s.dismiss} ${subject}`}
        aria-pressed={taken === 'dismissed'}
        onClick={() => dispositions.startDismissal(detection)}
      >
        {s.dismiss}
      </button>
    </>
  );
}

const presetReasons: readonly string[] = s.dismissalReasons;

/** The dismissal dialog of the detection `dispositions` is dismissing, if any. */
export function DismissalDialog({ dispositions }: { dispositions: Dispositions }) {
  const detection = dispositions.dismissing;
  // Keyed: each dismissal starts with an empty reason and no error.
  return detection ? (
    <DismissalForm key={detection.predictionId} dispositions={dispositions} detection={detection} />
  ) : null;
}

/**
 * A false positive's reason: one of the common ones picked with one click or tap fills the field,
 * which stays editable; 'Other' leaves it for the reviewer's own words. The reason stored is the
 * text, so the trail and the PDF show what the reviewer saw.
 */
function DismissalForm({
  dispositions,
  detection,
}: {
  dispositions: Dispositions;
  detection: ReportDetection;
}) {
  const [reason, setReason] = useState('');
  const [other, setOther] = useState(false);
  // The reviewer's own words, kept while a common reason is tried (arrow keys in the group pick
  // each in turn): 'Other' brings them back.
  const [ownWords, setOwnWords] = useState('');
  const fields = useFieldErrors<'reason'>();
  const group = useId();
  // The choice always describes the field: a common reason edited is the reviewer's own.
  const common = presetReasons.includes(reason);
  const otherPicked = !common && (other || reason !== '');

  const submit = async () => {
    // The server's rule of every reason: blank, 'x' or 'glare' tells an auditor nothing.
    if (!givesReason(reason)) {
      fields.warn('reason', s.reasonMissing);
      return false;
    }
    const problem = unstorableProblem(s.reason, reason);
    if (problem) {
      fields.warn('reason', problem);
      return false;
    }
    fields.clear();
    const outcome = await dispositions.dismiss(detection, reason);
    if (outcome.done) return true;
    // The toast is hidden from screen readers while the dialog is open: it says it too.
    if (outcome.said) fields.fail('reason', outcome.said);
    return false;
  };

  return (
    <FormDialog
      title={s.dismissTitle}
      submitLabel={s.dismiss}
      submitVariant="danger"
      onClose={dispositions.closeDismissal}
      onSubmit={submit}
    >
      <p>
        {detectionStamp(detection)}: {objectsText(detection)}
      </p>
      <fieldset className="dismissal-reasons">
        <legend>{s.commonReasons}</legend>
        {presetReasons.map((text) => (
          <label key={text} className="dismissal-reason">
            <input
              type="radio"
              name={group}
              checked={text === reason}
              onChange={() => {
                if (!common) setOwnWords(reason);
                setReason(text);
                setOther(false);
              }}
            />
            {text}
          </label>
        ))}
        <label className="dismissal-reason">
          <input
            type="radio"
            name={group}
            checked={otherPicked}
            onChange={() => {
              setOther(true);
              if (common) setReason(ownWords);
            }}
          />
          {s.otherReason}
        </label>
      </fieldset>
      <TextField
        label={s.reason}
        value={reason}
        onChange={setReason}
        rows={3}
        hint={s.reasonHint}
        {...fields.textField('reason')}
      />
    </FormDialog>
  );
}
