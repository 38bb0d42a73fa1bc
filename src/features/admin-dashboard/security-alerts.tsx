import { format } from 'date-fns';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { RecordActions } from '../../components/record-card.tsx';
import { RunButton } from '../../components/run-button.tsx';
import { paths } from '../../config/paths.ts';
import { localTime } from '../../lib/record-time.ts';
import { runAction } from '../../lib/run-action.ts';
import { manageBlocker } from '../../lib/user-management.ts';
import { session } from '../../stores/session.ts';
import type { AuditEntry, LineClearance, SecurityAlerts, User } from '../../types/api.ts';
import { getSecurityAlerts } from './api/get-security-alerts.ts';
import { reviewSecurityAlerts } from './api/review-security-alerts.ts';
import './security-alerts.css';
import { adminStrings as s } from './strings.ts';
import { UnlockDialog } from './unlock-dialog.tsx';

/** Read again this often while the page is visible: an alert is to be seen without looking. */
const RELOAD_MS = 60_000;

const worthShowing = (alerts: SecurityAlerts | null): alerts is SecurityAlerts =>
  Boolean(alerts && (alerts.count > 0 || alerts.lockedAccounts.length > 0));

/** Local time with its offset; today's without the date ('10:04 UTC+1'). */
function when(value: string): string {
  const time = localTime(value);
  if (!time) return s.unknown;
  return time.startsWith(format(new Date(), 'yyyy-MM-dd')) ? time.slice(11) : time;
}

const nameAndEmail = (name: string | undefined, email: string | null) =>
  name && email ? `${name} (${email})` : (name ?? email ?? s.someone);

/** An alert entry in plain words, from what the trail keeps of it; else its action's name. */
function describe(entry: AuditEntry, names: ReadonlyMap<string, string>): string {
  const value = (entry.newValue ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? value[key] : null);
  switch (entry.action) {
    case 'account.locked': {
      const until = text('lockedUntil');
      if (!until) break;
      const name = entry.entityId ? names.get(entry.entityId) : undefined;
      return s.accountLockedAlert(nameAndEmail(name, entry.actorEmail), when(until));
    }
    case 'login.address-blocked':
      if (!entry.entityId) break;
      return s.addressBlockedAlert(entry.entityId);
    case 'authorization.denied': {
      // Filed under the route, or under the object it protected with the route in its value.
      const route = entry.entity === 'route' ? entry.entityId : text('route');
      if (!route) break;
      const repeated = typeof value.repeated === 'number' ? s.refusedAgain(value.repeated) : '';
      const refused = s.accessRefusedAlert(
        entry.actorEmail ?? s.someone,
        route.replace(/:[^/]+/g, '…'),
      );
      return `${refused}${repeated}`;
    }
    case 'signature.after-reset': {
      const [meaning, resetBy, resetAt] = [text('meaning'), text('resetBy'), text('resetAt')];
      const hours = value.withinHours;
      if (!meaning || !resetBy || !resetAt || typeof hours !== 'number' || !entry.entityId) break;
      return s.signedAfterResetAlert(
        entry.actorEmail ?? s.someone,
        meaning,
        entry.entityId,
        hours,
        resetBy,
        when(resetAt),
      );
    }
  }
  return entry.action;
}

export interface SecurityAlertsPanelProps {
  /** The dashboard's users: the names of locked accounts, and whom the caller may unlock. */
  users: readonly User[];
  lineClearances: readonly LineClearance[];
  /** After an Unlock (the Users tab shows the lock too). */
  onUnlocked: () => void;
  /** When an action here leaves nothing to show: the focus goes there, not to <body>. */
  onCleared: () => void;
}

/**
 * Attempts at unauthorized use since the last review (21 CFR 11.300(d); docs/permissions.md
 * "Security alerts"), at the top of the admin and factory-manager dashboard. Shown only when there
 * is something to show; a failed load shows nothing, so the dashboard works without it.
 */
export function SecurityAlertsPanel({
  users,
  lineClearances,
  onUnlocked,
  onCleared,
}: SecurityAlertsPanelProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { roles, info } = useSnapshot(session);
  const [alerts, setAlerts] = useState<SecurityAlerts | null>(null);
  const [unlocking, setUnlocking] = useState<{ id: string; name: string } | null>(null);
  // Only the latest answer is shown: a slow reload never undoes a review made meanwhile.
  const asked = useRef(0);

  const load = useCallback(async () => {
    const mine = ++asked.current;
    try {
      const next = await getSecurityAlerts();
      if (mine === asked.current) setAlerts(next);
    } catch {
      // Nothing intrusive: the next reload tries again (a 401 has signed out already).
    }
  }, []);

  useEffect(() => {
    load();
    const reloadIfVisible = () => {
      if (document.visibilityState === 'visible') load();
    };
    const timer = setInterval(reloadIfVisible, RELOAD_MS);
    document.addEventListener('visibilitychange', reloadIfVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', reloadIfVisible);
    };
  }, [load]);

  /**
   * Shows the state an action here left. The button pressed goes with it, so the focus goes first
   * to the panel's heading, or to the page's when the panel goes too, never to <body>.
   */
  const afterAction = (next: SecurityAlerts) => {
    asked.current++;
    if (worthShowing(next)) heading.current?.focus();
    else onCleared();
    setAlerts(next);
  };

  if (!worthShowing(alerts)) return null;

  const userById = new Map(users.map((user) => [user._id, user]));
  const names = new Map([
    ...users.map((user): [string, string] => [user._id, user.name]),
    ...alerts.lockedAccounts.map((account): [string, string] => [account.id, account.name]),
  ]);
  const caller = { id: info?.id ?? null, roles };
  const events = s.securityEvents(alerts.count);
  const newest = alerts.entries[0];

  return (
    <section className="card security-alerts" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {s.securityAlerts}
      </h2>
      <p>
        {alerts.reviewed
          ? s.sinceReview(
              events,
              alerts.reviewed.by.name ?? alerts.reviewed.by.email ?? s.someone,
              when(alerts.reviewed.at),
            )
          : s.noneReviewedYet(events)}
        {alerts.count > alerts.entries.length && ` ${s.newestShown(alerts.entries.length)}`}
      </p>
      {alerts.entries.length > 0 && (
        <ul className="security-alert-list">
          {alerts.entries.map((entry) => (
            <li key={entry.id} className="wrap-anywhere">
              <time dateTime={entry.at}>{when(entry.at)}</time>: {describe(entry, names)}
            </li>
          ))}
        </ul>
      )}
      {alerts.lockedAccounts.length > 0 && (
        <>
          <h3>{s.lockedAccounts}</h3>
          <ul className="security-alert-list">
            {alerts.lockedAccounts.map((account) => {
              const user = userById.get(account.id);
              return (
                <li key={account.id}>
                  <div className="locked-account">
                    <span className="wrap-anywhere">
                      {s.lockedAccount(
                        nameAndEmail(account.name, account.email),
                        when(account.lockedUntil),
                      )}
                    </span>
                    <RecordActions
                      name={account.name}
                      actions={[
                        {
                          label: s.unlock,
                          onClick: () => setUnlocking(account),
                          unavailable: user ? manageBlocker(caller, user, lineClearances) : null,
                        },
                      ]}
                    />
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <div className="actions">
        {newest && (
          <RunButton
            label={s.markReviewed}
            busyLabel={s.markingReviewed}
            className="btn btn-primary"
            onRun={async () => {
              await runAction(
                () => reviewSecurityAlerts(newest.id).then(afterAction),
                s.alertsReviewed,
                s.reviewFailed,
              );
            }}
          />
        )}
        <Link href={paths.audit} className="btn btn-secondary">
          {s.openAuditTrail}
        </Link>
      </div>
      {unlocking && (
        <UnlockDialog
          account={unlocking}
          returnFocusTo={heading}
          onDone={() => {
            // Its Unlock goes as the dialog closes, so the focus comes back to the heading.
            const unlocked = unlocking.id;
            setAlerts(
              (shown) =>
                shown && {
                  ...shown,
                  lockedAccounts: shown.lockedAccounts.filter((account) => account.id !== unlocked),
                },
            );
            onUnlocked();
            // A failed reload leaves the panel as it was until the next one.
            void getSecurityAlerts().then(afterAction, () => undefined);
          }}
          onClose={() => setUnlocking(null)}
        />
      )}
    </section>
  );
}
