import { useSnapshot } from 'valtio';
import { hasAnyRole } from '../../lib/roles.ts';
import { session } from '../../stores/session.ts';
import { authStrings as s } from './strings.ts';
import '../../components/report-table.css';

/**
 * On every page while the password is one a manager chose: signatures wait for the user's own,
 * and nothing else would tell the user (an acceptance walk found inspections waiting for good).
 */
export function OwnPasswordNotice() {
  const snap = useSnapshot(session);
  if (!snap.loggedIn || snap.ownPassword) return null;
  const signs = hasAnyRole(snap.roles, ['lc_manager', 'admin']);
  return (
    <div className="page own-password-notice">
      <p className="report-warning" role="status">
        {signs ? s.ownPasswordSigner : s.ownPasswordOperator}
      </p>
    </div>
  );
}
