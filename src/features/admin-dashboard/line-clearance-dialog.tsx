import { useState } from 'react';
import { Field, TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { Select } from '../../components/select.tsx';
import { lineClearanceMessages as messages } from '../../config/entity-messages.ts';
import { runAction, warnIfBlank } from '../../lib/run-action.ts';
import type { LineClearance, LineClearanceStatus } from '../../types/api.ts';
import { createLineClearance } from './api/create-line-clearance.ts';
import { updateLineClearance } from './api/update-line-clearance.ts';
import { adminStrings as s } from './strings.ts';

const statuses: LineClearanceStatus[] = ['active', 'inactive', 'maintenance'];

export interface LineClearanceDialogProps {
  /** null creates a new line clearance. */
  item: LineClearance | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Spec §2: Edit Line Clearance / Create New Line Clearance, 500px. */
export function LineClearanceDialog({ item, onClose, onSaved }: LineClearanceDialogProps) {
  const [name, setName] = useState(item?.name ?? '');
  const [description, setDescription] = useState(item?.description ?? '');
  const [location, setLocation] = useState(item?.location ?? '');
  const [status, setStatus] = useState<LineClearanceStatus>(item?.status ?? 'active');

  const save = async () => {
    if (warnIfBlank(s.lineClearanceNameRequired, name)) return false;
    const fields = { name: name.trim(), description, location };
    const saved = item
      ? await runAction(
          () => updateLineClearance(item._id, { ...item, ...fields, status }),
          messages.updated,
          messages.updateFailed,
        )
      : await runAction(() => createLineClearance(fields), messages.created, messages.createFailed);
    if (saved) onSaved();
    return saved;
  };

  return (
    <FormDialog
      title={item ? s.editLineClearance : s.createLineClearance}
      onSubmit={save}
      onClose={onClose}
    >
      <TextField label={s.name} value={name} onChange={setName} />
      <TextField label={s.description} value={description} onChange={setDescription} rows={3} />
      <TextField label={s.location} value={location} onChange={setLocation} />
      {item && (
        <Field label={s.status}>
          <Select value={status} options={statuses} onChange={setStatus} />
        </Field>
      )}
    </FormDialog>
  );
}
