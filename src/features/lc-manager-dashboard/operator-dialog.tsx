import { useState } from 'react';
import { createUser } from '../../api/create-user.ts';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { operatorMessages as messages } from '../../config/entity-messages.ts';
import { useNewPassword } from '../../hooks/use-new-password.ts';
import { runAction, warnIfBlank } from '../../lib/run-action.ts';
import { lcDialogSize, lcStrings as s } from './strings.ts';

export interface OperatorDialogProps {
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Spec §2/§6: an LC manager creates operators only (no password strength feedback). The password's
 * minimum length is its hint and is checked before sending, so the API's own message never shows.
 */
export function OperatorDialog({ onClose, onSaved }: OperatorDialogProps) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const { password, check, field } = useNewPassword();

  const save = async () => {
    if (warnIfBlank(s.requiredFields, name, email, password)) return false;
    if (!check()) return false;
    const saved = await runAction(
      () => createUser({ name: name.trim(), email: email.trim(), password, role: 'operator' }),
      messages.created,
      messages.createFailed,
    );
    if (saved) onSaved();
    return saved;
  };

  return (
    <FormDialog
      title={s.createOperator}
      {...lcDialogSize}
      submitLabel={s.save}
      onSubmit={save}
      onClose={onClose}
    >
      <TextField label={s.name} value={name} onChange={setName} />
      <TextField label={s.email} value={email} onChange={setEmail} type="email" />
      <TextField label={s.password} {...field} type="password" autoComplete="new-password" />
      <p className="muted">{s.operatorPasswordNote}</p>
    </FormDialog>
  );
}
