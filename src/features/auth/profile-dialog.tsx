import type { RefObject } from 'react';
import { AppDialog } from '../../components/app-dialog.tsx';
import { Avatar } from '../../components/avatar.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { authStrings as s } from './strings.ts';

export interface ProfileDialogProps {
  open: boolean;
  returnFocusTo?: RefObject<HTMLElement | null>;
  onOpenChange: (open: boolean) => void;
  name: string;
  email: string;
}

/**
 * Spec §2 profile dialog. Closing it, by any means, clears the fields: the form lives in the
 * dialog's content, which closing unmounts.
 */
export function ProfileDialog({
  open,
  onOpenChange,
  name,
  email,
  returnFocusTo,
}: ProfileDialogProps) {
  const close = () => onOpenChange(false);
  return (
    <AppDialog
      open={open}
      onOpenChange={onOpenChange}
      title={s.profileTitle}
      width="450px"
      returnFocusTo={returnFocusTo}
    >
      <div className="profile-identity">
        <Avatar name={name} size="large" />
        <div>
          <p className="profile-name">{name}</p>
          <p className="muted">{email}</p>
        </div>
      </div>
      <ChangePasswordForm
        heading={s.changePassword}
        other={{ label: s.cancel, onClick: close }}
        onChanged={close}
      />
    </AppDialog>
  );
}
