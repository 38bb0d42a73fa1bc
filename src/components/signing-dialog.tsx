import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useSnapshot } from 'valtio';
import { givesReason, specNotes } from '../../server/schemas/review-notes.ts';
import { getReport } from '../api/get-reports.ts';
import {
  type ReviewDecision,
  refusedAsOutdated,
  refusedUserId,
  signInspection,
} from '../api/sign-inspection.ts';
import { useFieldErrors } from '../hooks/use-field-errors.ts';
import { localTime } from '../lib/record-time.ts';
import { refusesField, toastsChecking, tryAction, unanswered } from '../lib/run-action.ts';
import { unstorableProblem } from '../lib/text-rules.ts';
import { session } from '../stores/session.ts';
import type { InspectionReport, Signature } from '../types/api.ts';
import { TextField } from './field.tsx';
import { FormDialog } from './form-dialog.tsx';

/**
 * Spec §4 notes and §8 toasts, with each signature's meaning in words (21 CFR 11.50). The spec's
 * notes name the signer's role, not a reason: they are offered only for an approval with nothing
 * open, and the server takes neither as the reason a rejection or such an approval needs.
 */
export const signingText: Record<
  ReviewDecision,
  {
    title: string;
    meaning: string;
    notes: string;
    submit: string;
    success: string;
    failure: string;
  }
> = {
  approve: {
    title: 'Approve inspection',
    meaning: 'Approved: the line is clear for the next batch',
    notes: specNotes.approved,
    submit: 'Sign and approve',
    success: 'Inspection approved successfully',
    failure: 'Failed to approve inspection',
  },
  reject: {
    title: 'Reject inspection',
    meaning: 'Rejected: the line is not clear',
    notes: specNotes.rejected,
    submit: 'Sign and reject',
    success: 'Inspection rejected successfully',
    failure: 'Failed to reject inspection',
  },
};

/**
 * Where a signature sent without an answer shows whether it was made: the caller reloads the record
 * as the dialog closes (the report page holds the report; the cards do not).
 */
const UNANSWERED_CHECK = {
  report: 'Close this dialog: the report then shows whether it was signed.',
  card: "Close this dialog: the inspection's card then shows whether it was signed.",
};

/** The sign button's label while the signature is on its way. */
const SIGNING = 'Signing…';

/** Said when the caller's report, reloaded as the dialog opened, is not the one the signer saw. */
export const RECORD_CHANGED =
  'The record changed since you opened it: the page now shows it as it is. Close this dialog, review it again, then sign.';

export interface SigningDialogProps {
  inspectionId: string;
  decision: ReviewDecision;
  onClose(): void;
  /**
   * The record changed: signed here (or perhaps: no answer), or found signed or changed by someone
   * else, or without its video (409), or out of the caller's reach (404) meanwhile. Called as the
   * dialog closes; the caller reloads it, so the page shows it as it is.
   */
  onChanged(): void;
  /**
   * The inspection's report when the caller holds it (the report page); else it is fetched as the
   * dialog opens (the cards), for an approval and a rejection alike. The signature names the one
   * held or fetched as the dialog opened (its record hash): the caller may reload it meanwhile, and
   * a different one then closes the way to signing until it is reviewed.
   */
  report?: InspectionReport | null;
  /** Where focus goes on close if Approve or Reject is gone by then (the record is signed). */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/** How many flags the list of open exceptions names before '…and n more'. */
const NAMED_FLAGS = 3;

/**
 * What an approval would sign over: a blocker (no verified video: nothing to approve), or the
 * critical and high flags still open and the flagged detections still undecided.
 */
function ApprovalWarnings({ report }: { report: InspectionReport }) {
  if (report.approvalBlocker) {
    return (
      <p className="signing-warning" role="alert">
        {report.approvalBlocker}. It cannot be approved as clear, only rejected.
      </p>
    );
  }
  // Confirmed findings first: they are the exceptions a signer most needs to see named.
  const open = report.flags
    .filter(
      (flag) =>
        (flag.severity === 'critical' || flag.severity === 'high') && flag.decision !== 'dismissed',
    )
    .sort((a, b) => Number(b.decision === 'confirmed') - Number(a.decision === 'confirmed'));
  const undecided = report.flags.filter((f) => f.kind === 'detection' && f.decision === null);
  const confirmed = open.filter((f) => f.decision === 'confirmed').length;
  if (!open.length && !undecided.length) return null;
  const more = open.length - NAMED_FLAGS;
  return (
    <div className="signing-warning" role="alert">
      {open.length > 0 && (
        <>
          <p>
            <strong>
              {open.length} critical or high {open.length === 1 ? 'flag is' : 'flags are'} open:
            </strong>
          </p>
          <ul>
            {open.slice(0, NAMED_FLAGS).map((flag, index) => (
              <li key={`${flag.kind}-${flag.ref ?? index}`}>
                {flag.text}
                {flag.decision === 'confirmed' ? ' (confirmed finding)' : ''}
              </li>
            ))}
            {more > 0 && <li>…and {more} more</li>}
          </ul>
          {confirmed > 0 && (
            <p>
              {confirmed === 1
                ? '1 detection is confirmed as a finding.'
                : `${confirmed} detections are confirmed as findings.`}
            </p>
          )}
        </>
      )}
      {undecided.length > 0 && (
        <p>
          {undecided.length} flagged {undecided.length === 1 ? 'detection has' : 'detections have'}{' '}
          no decision yet (confirm or dismiss each on the report).
        </p>
      )}
      <p>
        Approving signs that the line is clear despite these; say why in the notes
        {report.approvalExceptions ? ' (required)' : ''}.
      </p>
    </div>
  );
}

/**
 * Approve or reject as an electronic signature: the meaning, the notes (required to reject) and
 * both of the signer's components, its user ID and password, entered at every signing (21 CFR
 * 11.200(a)(1)); the server checks the signing rules and both components (docs/signatures.md).
 */
export function SigningDialog({
  inspectionId,
  decision,
  onClose,
  onChanged,
  report: given = null,
  returnFocusTo,
}: SigningDialogProps) {
  const text = signingText[decision];
  const { info } = useSnapshot(session);
  // A reason is due for a rejection and for an approval over open flags: those start empty.
  const reasonDue = (known: InspectionReport | null) =>
    decision === 'reject' || Boolean(known?.approvalExceptions);
  const [notes, setNotes] = useState(() => (reasonDue(given) ? '' : text.notes));
  const [userId, setUserId] = useState('');
  const [password, setPassword] = useState('');
  const changed = useRef(false);
  // While the signature is on its way (the password is checked and the video hashed: seconds).
  const [signing, setSigning] = useState(false);
  const fields = useFieldErrors<'notes' | 'userId' | 'password'>();
  const [fetched, setReport] = useState<InspectionReport | null>(null);
  // The fetch started as the dialog opened: a signature sent before it answers waits for it.
  const fetching = useRef<Promise<InspectionReport | null>>(Promise.resolve(null));
  const report = given ?? fetched;
  // What the signer reviewed: the caller's report as the dialog opened, else the one fetched here.
  const [shownAtOpen] = useState(() => given?.recordHash);
  const outdated = shownAtOpen !== undefined && given !== null && given.recordHash !== shownAtOpen;
  // A refusal that a retry would only repeat (and the server audit again): signed or changed
  // meanwhile, the evidence not as recorded (409), or out of reach (404). Sign stays unavailable
  // until the dialog is closed and the record reloaded.
  const [refused, setRefused] = useState<string | null>(null);
  const unavailable = outdated ? RECORD_CHANGED : refused;
  const unavailableId = useId();
  const unavailableNote = useRef<HTMLParagraphElement>(null);
  const needsReason = reasonDue(report);
  const reasonGiven = givesReason(notes);

  // Either signature names the record as it was when the dialog opened; an approval also shows
  // what it would sign over. The server refuses what it must refuse anyway.
  useEffect(() => {
    if (given) return;
    let current = true;
    fetching.current = getReport(inspectionId).then(
      (loaded) => {
        if (current) setReport(loaded);
        if (current && decision === 'approve' && loaded.approvalExceptions)
          setNotes((typed) => (typed === signingText.approve.notes ? '' : typed));
        return loaded;
      },
      // Unread (the network, or out of reach): signed without a hash, as a script signs.
      () => null,
    );
    return () => {
      current = false;
    };
  }, [decision, inspectionId, given]);

  const submit = async () => {
    fields.clear();
    if (needsReason && !reasonGiven) {
      const warning =
        decision === 'reject'
          ? 'Please give the reason for the rejection, in a few words'
          : 'Please say in the notes, in a few words, why the line is clear despite the open flags';
      fields.warn('notes', warning);
      return false;
    }
    const notesProblem = unstorableProblem('Notes', notes);
    if (notesProblem) {
      fields.warn('notes', notesProblem);
      return false;
    }
    if (!userId.trim()) {
      fields.warn('userId', 'Please enter your user ID to sign');
      return false;
    }
    if (!password.trim()) {
      fields.warn('password', 'Please enter your password to sign');
      return false;
    }
    setSigning(true);
    const outcome = await tryAction(
      async () =>
        signInspection(
          inspectionId,
          decision,
          notes,
          { userId, password },
          shownAtOpen ?? (await fetching.current)?.recordHash,
        ),
      text.success,
      text.failure,
      undefined,
      toastsChecking(given ? UNANSWERED_CHECK.report : UNANSWERED_CHECK.card),
    );
    setSigning(false);
    // Signed, or perhaps signed (no answer): the record is reloaded as the dialog closes.
    if (outcome.done || unanswered(outcome.error)) changed.current = true;
    if (outcome.done) return true;
    const { error, said } = outcome;
    // Spec §8's toast shows outside the modal, hidden from screen readers while it is open: the
    // dialog says it too (after a 401 the app has signed out).
    if (said && refusedAsOutdated(error)) {
      // Reloaded when the dialog closes, not now, which would take the reason off the screen. Sign
      // is unavailable now, so the focus goes to the reason rather than to <body>.
      changed.current = true;
      setPassword('');
      flushSync(() => setRefused(said));
      unavailableNote.current?.focus();
      return false;
    }
    // At the password it asks for again; a refusal of the notes (a 400 naming them) or of the user
    // ID (not the signer's: no password was tried) is said at that field, the password staying typed.
    if (said && refusesField(error, 'body.notes')) {
      fields.fail('notes', said);
    } else if (said && (refusedUserId(error) || refusesField(error, 'body.userId'))) {
      fields.fail('userId', said);
    } else if (said) {
      setPassword('');
      fields.fail('password', said);
    }
    return false;
  };

  // Signed, perhaps signed, or found changed: the caller reloads the record as the dialog closes.
  const close = () => {
    if (changed.current || outdated) onChanged();
    onClose();
  };

  return (
    <FormDialog
      title={text.title}
      submitLabel={signing ? SIGNING : text.submit}
      submitVariant={decision === 'reject' ? 'danger' : 'primary'}
      submitDisabled={
        unavailable !== null || (decision === 'approve' && Boolean(report?.approvalBlocker))
      }
      submitDescribedBy={unavailable ? unavailableId : undefined}
      onSubmit={submit}
      onClose={close}
      returnFocusTo={returnFocusTo}
    >
      <p>
        <strong>Meaning of this signature:</strong> {text.meaning}
      </p>
      {unavailable && (
        <p
          id={unavailableId}
          ref={unavailableNote}
          className="signing-warning"
          role="alert"
          tabIndex={-1}
        >
          {unavailable}
        </p>
      )}
      {decision === 'approve' && report && <ApprovalWarnings report={report} />}
      <p className="muted">
        Signing as {info?.name ?? 'you'} ({info?.email ?? 'signed-in user'}), with both components
        of your signature: your user ID (the email you sign in with) and your password. Your name,
        the date and time (UTC) and this meaning are recorded with the inspection and printed on its
        report.
      </p>
      <TextField
        label={needsReason ? 'Notes (required)' : 'Notes'}
        value={notes}
        onChange={setNotes}
        rows={3}
        {...fields.textField('notes')}
      />
      <TextField
        label="User ID"
        type="email"
        autoComplete="username"
        required
        value={userId}
        onChange={setUserId}
        {...fields.textField('userId')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={setPassword}
        {...fields.textField('password')}
      />
    </FormDialog>
  );
}

/** The signature as a line of text for a card: who, when (the reader's clock) and what it means. */
export function signatureLine(signature: Signature): string {
  const when = localTime(signature.signedAt, true) ?? signature.signedAt;
  return `${signature.statement}. Signed by ${signature.signerName} on ${when}`;
}
