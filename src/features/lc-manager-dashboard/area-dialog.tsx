import { useState } from 'react';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { lineClearanceMessages as messages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { runAction } from '../../lib/run-action.ts';
import { createArea } from './api/create-area.ts';
import { lcDialogSize, lcStrings as s } from './strings.ts';

export interface AreaDialogProps {
  managerId: string;
  onClose: () => void;
  onSaved: () => void;
}

/** Spec §2: the LC manager creates a line clearance it manages (name, description, location). */
export function AreaDialog({ managerId, onClose, onSaved }: AreaDialogProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [location, setLocation] = useState('');
  const fieldErrors = useFieldErrors<'name'>();

  const save = async () => {
    fieldErrors.clear();
    if (fieldErrors.warnIfBlank(s.lineClearanceNameRequired, { name })) return false;
    const saved = await runAction(
      () => createArea({ name: name.trim(), description, location, managerId }),
      messages.created,
      messages.createFailed,
    );
    if (saved) onSaved();
    return saved;
  };

  return (
    <FormDialog
      title={s.createLineClearance}
      {...lcDialogSize}
      submitLabel={s.save}
      onSubmit={save}
      onClose={onClose}
    >
      <TextField
        label={s.name}
        value={name}
        onChange={setName}
        {...fieldErrors.textField('name')}
      />
      <TextField label={s.description} value={description} onChange={setDescription} rows={3} />
      <TextField label={s.location} value={location} onChange={setLocation} />
    </FormDialog>
  );
}
