import { initials } from '../lib/initials.ts';

/** What the avatar shows: the name's initials, or '?' for no name. */
export const avatarText = (name: string) => initials(name) || '?';

export function Avatar({ name, size = 'normal' }: { name: string; size?: 'normal' | 'large' }) {
  return (
    <span className={`avatar avatar-${size}`} aria-hidden="true">
      {avatarText(name)}
    </span>
  );
}
