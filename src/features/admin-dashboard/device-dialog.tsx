import { useState } from 'react';
import { MAX_DEVICE_NAME_LENGTH } from '../../../server/schemas/devices.ts';
import { Field, TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { Select } from '../../components/select.tsx';
import { deviceMessages as messages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { anyOverLimit } from '../../lib/text-rules.ts';
import type { Device, DeviceStatus, DeviceType } from '../../types/api.ts';
import { updateDevice } from './api/update-device.ts';
import { adminStrings as s } from './strings.ts';
import { useChangeReason, useDialogSave } from './use-dialog-save.tsx';

const types: DeviceType[] = ['camera', 'sensor', 'monitor', 'controller'];
const statuses: DeviceStatus[] = ['active', 'inactive', 'maintenance', 'offline'];

export interface DeviceDialogProps {
  item: Device;
  onClose: () => void;
  /** Reloads the list: after a save, and after a refusal because it changed meanwhile. */
  onSaved: () => void;
}

/** Spec §2: Edit Device, 500px (devices register themselves by QR scan, so there is no create). */
export function DeviceDialog({ item, onClose, onSaved }: DeviceDialogProps) {
  const [name, setName] = useState(item.name);
  const [type, setType] = useState<DeviceType | ''>(item.type ?? '');
  const [status, setStatus] = useState<DeviceStatus>(item.status ?? 'active');
  const fieldErrors = useFieldErrors<'name'>();
  const reason = useChangeReason(messages.noun[0], { name: name.trim(), type, status });
  const { save: run, refusalAlert } = useDialogSave(onSaved, reason);

  const save = async () => {
    fieldErrors.clear();
    if (fieldErrors.warnIfBlank(s.deviceNameRequired, { name })) return false;
    if (anyOverLimit([name, MAX_DEVICE_NAME_LENGTH])) return false;
    const given = reason.check();
    if (given === null) return false;
    // The version it was opened at: a save over another's since is refused.
    return run(
      () =>
        updateDevice(item._id, {
          name: name.trim(),
          type: type || null,
          status,
          version: item.version,
          ...given,
        }),
      messages.updated,
      messages.updateFailed,
    );
  };

  return (
    <FormDialog title={s.editDevice} onSubmit={save} onClose={onClose}>
      <TextField
        label={s.name}
        value={name}
        onChange={setName}
        limit={MAX_DEVICE_NAME_LENGTH}
        {...fieldErrors.textField('name')}
      />
      <Field label={s.type}>
        <Select
          value={type}
          options={types}
          onChange={setType}
          emptyLabel={item.type ? undefined : s.unknown}
        />
      </Field>
      <Field label={s.status}>
        <Select value={status} options={statuses} onChange={setStatus} />
      </Field>
      {reason.field}
      {refusalAlert}
    </FormDialog>
  );
}
