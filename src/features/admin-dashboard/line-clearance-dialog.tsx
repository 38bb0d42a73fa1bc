import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { LINE_CLEARANCE_LIMITS } from '../../../server/schemas/line-clearances.ts';
import { seesAllLinesOf } from '../../../server/schemas/manageable-roles.ts';
import { Field, TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { Select } from '../../components/select.tsx';
import { lineClearanceMessages as messages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { roleList } from '../../lib/roles.ts';
import { anyOverLimit } from '../../lib/text-rules.ts';
import { session } from '../../stores/session.ts';
import type { LineClearance, LineClearanceStatus, User } from '../../types/api.ts';
import { createLineClearance } from './api/create-line-clearance.ts';
import { updateLineClearance } from './api/update-line-clearance.ts';
import { adminStrings as s } from './strings.ts';
import { useChangeReason, useDialogSave } from './use-dialog-save.tsx';

const statuses: LineClearanceStatus[] = ['active', 'inactive', 'maintenance'];

export interface LineClearanceDialogProps {
  /** null creates a new line clearance. */
  item: LineClearance | null;
  /** The users the page loaded: the holders of the lc_manager role are offered as its manager. */
  users: readonly User[];
  onClose: () => void;
  /** Reloads the list: after a save, and after a refusal because it changed meanwhile. */
  onSaved: () => void;
}

/** Spec §2: Edit Line Clearance / Create New Line Clearance, 500px. */
export function LineClearanceDialog({ item, users, onClose, onSaved }: LineClearanceDialogProps) {
  // Admins and factory managers name any manager (or none); the server makes an LC manager the
  // manager of what it creates or edits, whatever is sent, so it is not asked.
  const { roles } = useSnapshot(session);
  const choosesManager = seesAllLinesOf(roles);
  const [name, setName] = useState(item?.name ?? '');
  const [description, setDescription] = useState(item?.description ?? '');
  const [location, setLocation] = useState(item?.location ?? '');
  const [status, setStatus] = useState<LineClearanceStatus>(item?.status ?? 'active');
  const [managerId, setManagerId] = useState<string | null>(item?.managerId ?? null);
  const fieldErrors = useFieldErrors<'name'>();
  const managers = users.filter((user) => roleList(user.role).includes('lc_manager'));
  // The current manager stays offered (and shown) even when no longer listed as an LC manager.
  const current = item?.managerId;
  const currentMissing = current && !managers.some((user) => user._id === current);
  const reason = useChangeReason(messages.noun[0], {
    name: name.trim(),
    description,
    location,
    status,
    managerId,
  });
  const { save: run, refusalAlert } = useDialogSave(onSaved, reason);

  const save = async () => {
    fieldErrors.clear();
    if (fieldErrors.warnIfBlank(s.lineClearanceNameRequired, { name })) return false;
    const { name: nameMax, text: textMax } = LINE_CLEARANCE_LIMITS;
    if (anyOverLimit([name, nameMax], [description, textMax], [location, textMax])) return false;
    // Sent trimmed, as its length was counted.
    const fields = {
      name: name.trim(),
      description: description.trim(),
      location: location.trim(),
      ...(choosesManager ? { managerId } : {}),
    };
    const given = item ? reason.check() : {};
    if (given === null) return false;
    // The record as opened, its version included: a save over another's since is refused.
    return item
      ? run(
          () => updateLineClearance(item._id, { ...item, ...fields, status, ...given }),
          messages.updated,
          messages.updateFailed,
        )
      : run(() => createLineClearance(fields), messages.created, messages.createFailed);
  };

  return (
    <FormDialog
      title={item ? s.editLineClearance : s.createLineClearance}
      onSubmit={save}
      onClose={onClose}
    >
      <TextField
        label={s.name}
        value={name}
        onChange={setName}
        limit={LINE_CLEARANCE_LIMITS.name}
        {...fieldErrors.textField('name')}
      />
      <TextField
        label={s.description}
        value={description}
        onChange={setDescription}
        rows={3}
        limit={LINE_CLEARANCE_LIMITS.text}
      />
      <TextField
        label={s.location}
        value={location}
        onChange={setLocation}
        limit={LINE_CLEARANCE_LIMITS.text}
      />
      {choosesManager && (
        <Field label={s.lcManager}>
          <select
            value={managerId ?? ''}
            onChange={(event) => setManagerId(event.target.value || null)}
          >
            <option value="">{s.noManagerOption}</option>
            {managers.map((user) => (
              <option key={user._id} value={user._id}>
                {user.name}
              </option>
            ))}
            {currentMissing && (
              <option value={current}>
                {users.find((user) => user._id === current)?.name ?? s.unknown}
              </option>
            )}
          </select>
        </Field>
      )}
      {item && (
        <Field label={s.status}>
          <Select value={status} options={statuses} onChange={setStatus} />
        </Field>
      )}
      {item && reason.field}
      {refusalAlert}
    </FormDialog>
  );
}
