import { initials } from '../lib/initials.ts';

export function Avatar({ name, size = 'normal' }: { name: string; size?: 'normal' | 'large' }) {
  return (
    <span className={`avatar avatar-${size}`} aria-hidden="true">
      {initials(name) || '?'}
    </span>
  );
}
