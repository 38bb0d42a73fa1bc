import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { AppDialog } from '../../components/app-dialog.tsx';
import { formatDuration } from '../../lib/format-duration.ts';
import { idleSession, startIdleSession, staySignedIn } from '../../lib/idle-session.ts';
import { session } from '../../stores/session.ts';
import { authStrings as s } from './strings.ts';

/**
 * Sign-out after inactivity (docs/web-app.md, "Sessions and sign-in"): tracks the signed-in
 * session with the server's limit, and a minute before it asks whether the user is still there.
 */
export function IdleSignOut() {
  const snap = useSnapshot(session);
  const minutes = snap.loggedIn ? snap.idleMinutes : null;
  const userId = snap.info?.id;
  // Each sign-in (another user, or the same one again) starts with a clock of its own.
  useEffect(() => (minutes && userId ? startIdleSession(minutes) : undefined), [minutes, userId]);
  const { warning, deadline } = useSnapshot(idleSession);
  return (
    <AppDialog
      open={warning}
      onOpenChange={(open) => {
        // Closing it (×, Escape) is the user answering: as 'Stay signed in'.
        if (!open) staySignedIn();
      }}
      title={s.idleWarningTitle}
      width="450px"
    >
      {warning && <TimeLeft deadline={deadline} />}
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={staySignedIn}>
          {s.staySignedIn}
        </button>
      </div>
    </AppDialog>
  );
}

/** The countdown, once a second; not a live region, which would read every second aloud. */
function TimeLeft({ deadline }: { deadline: number }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  return <p>{s.idleWarning(formatDuration((deadline - now) / 1000))}</p>;
}
