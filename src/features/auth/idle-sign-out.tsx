import { useEffect, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { AppDialog } from '../../components/app-dialog.tsx';
import { formatDuration } from '../../lib/format-duration.ts';
import {
  followSignOutInOtherTabs,
  idleSession,
  startIdleSession,
  staySignedIn,
} from '../../lib/idle-session.ts';
import { session } from '../../stores/session.ts';
import { authStrings as s } from './strings.ts';

/**
 * Sign-out after inactivity (docs/sessions.md): tracks the signed-in
 * session with the server's limit, and a minute before it asks whether the user is still there.
 * A sign-out in another tab signs this one out too, whatever the limit.
 */
export function IdleSignOut() {
  const snap = useSnapshot(session);
  const minutes = snap.loggedIn ? snap.idleMinutes : null;
  const userId = snap.info?.id;
  // Each sign-in (another user, or the same one again) starts with a clock of its own.
  useEffect(() => (minutes && userId ? startIdleSession(minutes) : undefined), [minutes, userId]);
  useEffect(() => (userId ? followSignOutInOtherTabs() : undefined), [userId]);
  const { warning, deadline } = useSnapshot(idleSession);
  const timeLeftId = useId();
  return (
    <AppDialog
      open={warning}
      onOpenChange={(open) => {
        // Closing it (×, Escape) is the user answering: as 'Stay signed in'.
        if (!open) staySignedIn();
      }}
      title={s.idleWarningTitle}
      width="450px"
      describedBy={timeLeftId}
    >
      {warning && <TimeLeft id={timeLeftId} deadline={deadline} />}
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={staySignedIn}>
          {s.staySignedIn}
        </button>
      </div>
    </AppDialog>
  );
}

/**
 * The countdown, once a second; not a live region, which would read every second aloud. It is the
 * dialog's description, so a screen reader opening it hears what happens and when, not only the
 * title and the focused button.
 */
function TimeLeft({ id, deadline }: { id: string; deadline: number }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  return <p id={id}>{s.idleWarning(formatDuration((deadline - now) / 1000))}</p>;
}
