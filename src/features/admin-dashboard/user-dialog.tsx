import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { PREFILLED_PASSWORD } from '../../../server/schemas/password-rule.ts';
import { MAX_EMAIL_LENGTH, MAX_USER_NAME_LENGTH } from '../../../server/schemas/users.ts';
import { createUser } from '../../api/create-user.ts';
import { TextField } from '../../components/field.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { MultiSelect } from '../../components/multi-select.tsx';
import { Select } from '../../components/select.tsx';
import { userMessages as messages } from '../../config/entity-messages.ts';
import { useFieldErrors } from '../../hooks/use-field-errors.ts';
import { useNewPassword } from '../../hooks/use-new-password.ts';
import { isRole, type Role, roleLabel, roleList } from '../../lib/roles.ts';
import { anyOverLimit, unstorableProblem } from '../../lib/text-rules.ts';
import { manageableRoles, userManagementStrings } from '../../lib/user-management.ts';
import { session } from '../../stores/session.ts';
import { toastWarning } from '../../stores/toasts.ts';
import type { LineClearance, User, UserStatus } from '../../types/api.ts';
import { updateUser } from './api/update-user.ts';
import { ResetPassword } from './reset-password.tsx';
import { accountStatusLabels, adminStrings as s } from './strings.ts';
import { useChangeReason, useDialogSave } from './use-dialog-save.tsx';

export interface UserDialogProps {
  /** null creates a new user. */
  item: User | null;
  lineClearances: readonly LineClearance[];
  onClose: () => void;
  /** Reloads the list: after a save, and after a refusal because it changed meanwhile. */
  onSaved: () => void;
}

/** Spec §2: Edit User / Create New User, 500px. New users default to the operator role (§6). */
export function UserDialog({ item, lineClearances, onClose, onSaved }: UserDialogProps) {
  // Only the roles the signed-in user may grant (the server refuses any other with 403).
  const { roles, info } = useSnapshot(session);
  // Nobody deactivates their own account (the server answers 409): shown, not offered.
  const ownAccount = item !== null && item._id === info?.id;
  const roleOptions = manageableRoles(roles).map((role) => ({
    value: role,
    label: roleLabel(role),
  }));
  const [name, setName] = useState(item?.name ?? '');
  const [email, setEmail] = useState(item?.email ?? '');
  const [userRoles, setUserRoles] = useState<Role[]>(
    item ? roleList(item.role).filter(isRole) : ['operator'],
  );
  const { password, check, field: passwordField } = useNewPassword(PREFILLED_PASSWORD);
  const [lineClearanceIds, setLineClearanceIds] = useState<string[]>([
    ...(item?.lineClearanceIds ?? []),
  ]);
  const [status, setStatus] = useState<UserStatus>(item?.status ?? 'active');
  const fieldErrors = useFieldErrors<'name'>();
  const reason = useChangeReason(messages.noun[0], {
    name: name.trim(),
    email: email.trim(),
    userRoles,
    lineClearanceIds,
    status,
  });
  const { save: run, refusalAlert } = useDialogSave(onSaved, reason);

  const save = async () => {
    fieldErrors.clear();
    if (fieldErrors.warnIfBlank(s.userNameRequired, { name })) return false;
    const nameProblem = unstorableProblem('Name', name);
    if (nameProblem) {
      fieldErrors.warn('name', nameProblem);
      return false;
    }
    if (anyOverLimit([name, MAX_USER_NAME_LENGTH], [email, MAX_EMAIL_LENGTH])) return false;
    if (userRoles.length === 0) {
      toastWarning(s.roleRequired);
      return false;
    }
    if (!item && !check()) return false;
    const given = item ? reason.check() : {};
    if (given === null) return false;
    // One role is sent as a string, several as a list (spec §3 allows both).
    const role = userRoles.length === 1 ? (userRoles[0] as Role) : userRoles;
    const fields = { name: name.trim(), email: email.trim(), lineClearanceIds, role };
    // The user as opened, its version included: a save over another's since is refused.
    return item
      ? run(
          () => updateUser(item._id, { ...item, ...fields, status, ...given }),
          messages.updated,
          messages.updateFailed,
        )
      : run(() => createUser({ ...fields, password }), messages.created, messages.createFailed);
  };

  return (
    <FormDialog
      title={item ? s.editUser : s.createUser}
      onSubmit={save}
      onClose={onClose}
      after={item && <ResetPassword user={item} />}
    >
      <TextField
        label={s.name}
        value={name}
        onChange={setName}
        limit={MAX_USER_NAME_LENGTH}
        {...fieldErrors.textField('name')}
      />
      <TextField
        label={s.email}
        value={email}
        onChange={setEmail}
        type="email"
        limit={MAX_EMAIL_LENGTH}
      />
      <div className="field">
        <span className="field-label">{s.roles}</span>
        <MultiSelect
          label={s.roles}
          options={roleOptions}
          value={userRoles}
          onChange={(values) => setUserRoles(values.filter(isRole))}
          placeholder={s.selectRoles}
        />
      </div>
      {!item && (
        <TextField
          label={s.password}
          {...passwordField}
          hint={s.temporaryPasswordHint}
          type="text"
          autoComplete="off"
        />
      )}
      {item && ownAccount && (
        <div className="field">
          <span className="field-label">{s.accountStatus}</span>
          <p className="muted">
            {accountStatusLabels[status]}: {userManagementStrings.ownStatus}
          </p>
        </div>
      )}
      {item && !ownAccount && (
        <div className="field">
          <label className="field-label" htmlFor="user-status">
            {s.accountStatus}
          </label>
          <Select
            id="user-status"
            value={accountStatusLabels[status]}
            options={Object.values(accountStatusLabels)}
            onChange={(label) =>
              setStatus(label === accountStatusLabels.deactivated ? 'deactivated' : 'active')
            }
          />
        </div>
      )}
      <div className="field">
        <span className="field-label">{s.lineClearances}</span>
        <MultiSelect
          label={s.lineClearances}
          options={lineClearances.map((line) => ({ value: line._id, label: line.name }))}
          value={lineClearanceIds}
          onChange={setLineClearanceIds}
          placeholder={s.selectLineClearances}
        />
      </div>
      {item && reason.field}
      {refusalAlert}
    </FormDialog>
  );
}
