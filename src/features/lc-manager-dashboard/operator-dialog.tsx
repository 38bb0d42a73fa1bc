import { useState } from 'react';
import { MAX_EMAIL_LENGTH, MAX_USER_NAME_LENGTH } from '../../../server/schemas/users.ts';
import { createUser } from '../../api/create-user.ts';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { operatorMessages as messages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { useNewPassword } from '../../hooks/use-new-password.ts';
import { runAction } from '../../lib/run-action.ts';
import { anyOverLimit } from '../../lib/text-rules.ts';
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
  const fieldErrors = useFieldErrors<'name' | 'email' | 'password'>();
  const labels = { name: s.name, email: s.email, password: s.password };
  const passwordField = fieldErrors.textField('password');

  const save = async () => {
    fieldErrors.clear();
    const blank = fieldErrors.warnIfBlank(s.requiredFields, { name, email, password }, (key) =>
      s.fieldRequired(labels[key]),
    );
    if (blank) return false;
    if (anyOverLimit([name, MAX_USER_NAME_LENGTH], [email, MAX_EMAIL_LENGTH])) return false;
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
      <TextField
        label={s.name}
        value={name}
        onChange={setName}
        required
        limit={MAX_USER_NAME_LENGTH}
        {...fieldErrors.textField('name')}
      />
      <TextField
        label={s.email}
        value={email}
        onChange={setEmail}
        type="email"
        required
        limit={MAX_EMAIL_LENGTH}
        {...fieldErrors.textField('email')}
      />
      <TextField
        label={s.password}
        {...field}
        type="password"
        autoComplete="new-password"
        required
        error={passwordField.error ?? field.error}
        announce
        // Both checks move the focus here: blank (required) and too short (the password rule).
        inputRef={(input) => {
          field.inputRef.current = input;
          passwordField.inputRef(input);
        }}
      />
      <p className="muted">{s.operatorPasswordNote}</p>
    </FormDialog>
  );
}
