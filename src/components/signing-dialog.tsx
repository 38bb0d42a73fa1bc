import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { type ReviewDecision, signInspection } from '../api/sign-inspection.ts';
import { runAction, warnIfBlank } from '../lib/run-action.ts';
import { session } from '../stores/session.ts';
import type { Inspection, Signature } from '../types/api.ts';
import { TextField } from './field.tsx';
import { FormDialog } from './form-dialog.tsx';

/** Spec §4 notes and §8 toasts, with each signature's meaning in words (21 CFR 11.50). */
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
    notes: 'Approved by LC Manager',
    submit: 'Sign and approve',
    success: 'Inspection approved successfully',
    failure: 'Failed to approve inspection',
  },
  reject: {
    title: 'Reject inspection',
    meaning: 'Rejected: the line is not clear',
    notes: 'Rejected by LC Manager',
    submit: 'Sign and reject',
    success: 'Inspection rejected successfully',
    failure: 'Failed to reject inspection',
  },
};

export interface SigningDialogProps {
  inspectionId: string;
  decision: ReviewDecision;
  onClose(): void;
  onSigned(inspection: Inspection): void;
}

/**
 * Approve or reject as an electronic signature: the meaning, the notes (required to reject) and
 * the signer's password; the server checks the signing rules and the password (docs/reports.md).
 */
export function SigningDialog({ inspectionId, decision, onClose, onSigned }: SigningDialogProps) {
  const text = signingText[decision];
  const { info } = useSnapshot(session);
  const [notes, setNotes] = useState(text.notes);
  const [password, setPassword] = useState('');

  const submit = async () => {
    if (decision === 'reject' && warnIfBlank('Please give the reason for the rejection', notes)) {
      return false;
    }
    if (warnIfBlank('Please enter your password to sign', password)) return false;
    let signed: Inspection | null = null;
    const done = await runAction(
      async () => {
        signed = await signInspection(inspectionId, decision, notes, password);
      },
      text.success,
      text.failure,
    );
    if (done && signed) onSigned(signed);
    return done;
  };

  return (
    <FormDialog title={text.title} submitLabel={text.submit} onSubmit={submit} onClose={onClose}>
      <p>
        <strong>Meaning of this signature:</strong> {text.meaning}
      </p>
      <p className="muted">
        Signing as {info?.name ?? 'you'} ({info?.email ?? 'signed-in user'}). Your name, the date
        and time (UTC) and this meaning are recorded with the inspection and printed on its report.
      </p>
      <TextField
        label={decision === 'reject' ? 'Notes (required)' : 'Notes'}
        value={notes}
        onChange={setNotes}
        rows={3}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
    </FormDialog>
  );
}

/** The signature as a line of text: who, when (UTC) and what it means. */
export function signatureLine(signature: Signature): string {
  const when = signature.signedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
  return `${signature.statement}. Signed by ${signature.signerName} on ${when} UTC`;
}
