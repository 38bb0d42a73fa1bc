import { DropdownMenu } from 'radix-ui';
import { lazy, Suspense, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { Avatar, avatarText } from '../components/avatar.tsx';
import { paths } from '../config/paths.ts';
import { ProfileDialog } from '../features/auth/profile-dialog.tsx';
import { askBeforeSignOut } from '../lib/leave-guard.ts';
import { logOut } from '../lib/log-out.ts';
import { session } from '../stores/session.ts';
import { effectiveScheme, theme, toggleTheme } from '../stores/theme.ts';

// The guide's text is only fetched when someone opens it.
const UserGuideDialog = lazy(() => import('../features/user-guide/user-guide-dialog.tsx'));

const logoMark = 'LC';
const logo = 'Line Clearance';

// WCAG 2.5.3 (label in name): a control's name starts with the text it shows, the logo mark and
// the avatar's initials included, so a speech-input user can say what they see.
export const toolbarStrings = {
  logoMark,
  logo,
  home: `${logoMark} ${logo}: start page`,
  userGuide: 'User Guide',
  adminPanel: 'Admin Panel',
  signIn: 'Sign In',
  profile: 'Profile',
  logOut: 'Log out',
  toDark: 'Switch to dark colours',
  toLight: 'Switch to light colours',
  userMenu: (name: string) => `${avatarText(name)} ${name}: account menu`,
} as const;

/** Spec §2 top toolbar, on every page. */
export function Toolbar() {
  const snap = useSnapshot(session);
  const scheme = useSnapshot(theme);
  const [, navigate] = useLocation();
  const [guideOpen, setGuideOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const menuTrigger = useRef<HTMLButtonElement>(null);
  const s = toolbarStrings;
  const dark = effectiveScheme(scheme) === 'dark';
  const name = snap.info?.name ?? '';

  return (
    <header className="toolbar">
      <Link href={paths.home} className="logo" aria-label={s.home}>
        <span className="logo-mark" aria-hidden="true">
          {s.logoMark}
        </span>{' '}
        <span className="logo-text">{s.logo}</span>
      </Link>
      <nav className="toolbar-actions" aria-label="Main">
        <button
          type="button"
          className="btn btn-ghost btn-icon"
          aria-label={dark ? s.toLight : s.toDark}
          title={dark ? s.toLight : s.toDark}
          onClick={toggleTheme}
        >
          <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
        </button>
        {snap.loggedIn ? (
          <>
            <button type="button" className="btn btn-ghost" onClick={() => setGuideOpen(true)}>
              {s.userGuide}
            </button>
            {snap.roles.includes('admin') && (
              <Link href={paths.admin} className="btn btn-ghost">
                {s.adminPanel}
              </Link>
            )}
            <DropdownMenu.Root>
              <DropdownMenu.Trigger
                ref={menuTrigger}
                className="btn btn-ghost user-menu-trigger"
                aria-label={s.userMenu(name)}
              >
                <Avatar name={name} /> <span className="user-name">{name}</span>
              </DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
                  <DropdownMenu.Item className="menu-item" onSelect={() => setProfileOpen(true)}>
                    {s.profile}
                  </DropdownMenu.Item>
                  <DropdownMenu.Item
                    className="menu-item"
                    onSelect={() =>
                      // A page holding work not kept (a recording, a calibration) asks first.
                      askBeforeSignOut(() => {
                        logOut();
                        navigate(paths.home);
                      })
                    }
                  >
                    {s.logOut}
                  </DropdownMenu.Item>
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </>
        ) : (
          <Link href={paths.login} className="btn btn-primary">
            {s.signIn}
          </Link>
        )}
      </nav>
      {guideOpen && (
        <Suspense fallback={null}>
          <UserGuideDialog open={guideOpen} onOpenChange={setGuideOpen} />
        </Suspense>
      )}
      <ProfileDialog
        open={profileOpen}
        onOpenChange={setProfileOpen}
        name={name}
        email={snap.info?.email ?? ''}
        returnFocusTo={menuTrigger}
      />
    </header>
  );
}
