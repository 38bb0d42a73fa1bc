// The page a sign-in returns to: /login carries it as `next` (path and query), so a link opened
// signed out, or a session ended mid-work, comes back to that page once the user signs in again.
import { paths } from '../config/paths.ts';

const NEXT = 'next';

/**
 * `value` when it is a path of this origin (one '/', not '//' or '/\', so no other host and no
 * scheme), else null: an open-redirect guard, as /login's query is anyone's to write. Parsed too,
 * since browsers drop tabs and line breaks ('/\t/evil.example' is '//evil.example' to them).
 */
export function safeReturnPath(value: string | null): string | null {
  if (!value?.startsWith('/') || /^\/[/\\]/.test(value)) return null;
  const { origin } = window.location;
  const url = new URL(value, origin);
  // Back to /login itself would only ask again.
  if (url.origin !== origin || url.pathname === paths.login) return null;
  return value;
}

/** /login with `reason` (why it shows, e.g. `session=ended`) and the page to return to. */
export function loginPath(next: string | null, reason = ''): string {
  const query = new URLSearchParams(reason);
  const page = safeReturnPath(next);
  if (page) query.set(NEXT, page);
  const search = query.toString();
  return search ? `${paths.login}?${search}` : paths.login;
}

/**
 * The page shown now (path and query), for `loginPath` from outside the router. On /login, the
 * page it already returns to: several calls answered 401 at once each go to /login.
 */
export function pageToReturnTo(): string | null {
  const { pathname, search } = window.location;
  return pathname === paths.login ? readLoginQuery(search).next : pathname + search;
}

/** /login's query split into the page to return to (null when missing or unsafe) and the rest. */
export function readLoginQuery(search: string): { next: string | null; reason: string } {
  const query = new URLSearchParams(search);
  const next = safeReturnPath(query.get(NEXT));
  query.delete(NEXT);
  return { next, reason: query.toString() };
}
