// Sign-out after inactivity, on fake timers: the warning a minute before the limit, 'Stay signed
// in', input and work in progress as activity, another tab's activity, and the sign-out itself.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { cleanup, render, unexpectedRequest } from '../../../tests/web/render.tsx';
import { AppDialog } from '../../components/app-dialog.tsx';
import {
  keepActiveWhilePlaying,
  keepSessionActive,
  lastActivityKey,
} from '../../lib/idle-session.ts';
import { accessTokenKey, session, signIn, signOut } from '../../stores/session.ts';
import { IdleSignOut } from './idle-sign-out.tsx';

const MINUTE = 60_000;
const operator = { id: 'op1', name: 'Olga Brandt', email: 'olga@example.com', roles: ['operator'] };
const testPage = window.location.href;
/** /login's `next` back to the page a sign-out left (here the test page). */
const kept = `&next=${encodeURIComponent(new URL(testPage).pathname + new URL(testPage).search)}`;

interface Call {
  key: string;
  token: string | undefined;
  body: unknown;
}

/** The server: renewals answer token-1, token-2, … (or `renewal`'s answer); logout answers ok. */
function server(renewal?: () => Response) {
  const calls: Call[] = [];
  let renewed = 0;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(String(input), window.location.origin).pathname}`;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ key, token: headers.Authorization, body });
    if (key === 'POST /api/session/renew') {
      renewed += 1;
      return renewal?.() ?? Response.json({ token: `token-${renewed}`, idleMinutes: 30 });
    }
    if (key === 'POST /api/logout') return Response.json({ message: 'Logged out' });
    return unexpectedRequest(key);
  });
  return {
    calls,
    renewals: () => calls.filter((call) => call.key === 'POST /api/session/renew').length,
  };
}

/** Signed in with a 30-minute limit, the tracker running; the clock starts at 08:00. */
async function signedIn() {
  vi.setSystemTime(new Date('2026-03-02T08:00:00Z'));
  signIn('token-0', operator, true, 30);
  await render(<IdleSignOut />);
}

/** Moves the clock on, running the timers due, and lets the page answer. */
async function wait(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

const warning = () => page.getByRole('dialog', { name: 'Still there?' });

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  localStorage.removeItem(lastActivityKey);
});

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
  signOut();
  vi.unstubAllGlobals();
  localStorage.removeItem(lastActivityKey);
  window.history.replaceState(null, '', testPage);
});

describe('sign-out after inactivity', () => {
  it('warns a minute before the limit, counting down', async () => {
    const { renewals } = server();
    await signedIn();
    // The sign-in counts as activity: a token of full life at once.
    await vi.waitFor(() => expect(localStorage.getItem(accessTokenKey)).toBe('token-1'));
    await wait(29 * MINUTE - 1000);
    expect(warning().query()).toBeNull();
    await wait(1000);
    await expect
      .element(warning())
      .toHaveTextContent('You will be signed out in 1:00 because there was no activity.');
    await expect.element(page.getByRole('button', { name: 'Stay signed in' })).toHaveFocus();
    // What happens and when is the dialog's description, read with its title as it opens.
    await expect
      .element(warning())
      .toHaveAccessibleDescription('You will be signed out in 1:00 because there was no activity.');
    await wait(1000);
    await expect.element(warning()).toHaveTextContent('signed out in 0:59');
    // Nothing was done meanwhile, so nothing was renewed.
    expect(renewals()).toBe(1);
    expect(session.loggedIn).toBe(true);
  });

  it('Escape on the warning closes only the warning: a form open under it keeps what was typed', async () => {
    server();
    vi.setSystemTime(new Date('2026-03-02T08:00:00Z'));
    signIn('token-0', operator, true, 30);
    await render(
      <>
        <AppDialog open onOpenChange={() => {}} title="Edit Line Clearance" width="500px">
          <input aria-label="Location" defaultValue="typed" />
        </AppDialog>
        <IdleSignOut />
      </>,
    );
    const form = page.getByRole('dialog', { name: 'Edit Line Clearance' });
    await wait(29 * MINUTE + 30_000);
    await expect.element(warning()).toBeVisible();
    // A real key press: between the window's and the document's listeners the browser runs
    // microtasks (a re-render), which an event dispatched from script does not.
    await userEvent.keyboard('{Escape}');
    await wait(100);
    await expect.element(warning()).not.toBeInTheDocument();
    await expect.element(form).toBeInTheDocument();
    expect(form.getByLabelText('Location').element()).toHaveProperty('value', 'typed');
  });

  it('‘Stay signed in’ renews the token and starts the clock again', async () => {
    const { renewals } = server();
    await signedIn();
    await wait(29 * MINUTE + 30_000);
    await expect.element(warning()).toBeVisible();
    // The DOM's click: Playwright's pointer click does not reach a dialog on a page whose timers
    // are fake (its pointer lands on <html>). The pointer itself is activity: the next test.
    (page.getByRole('button', { name: 'Stay signed in' }).element() as HTMLElement).click();
    await expect.element(warning()).not.toBeInTheDocument();
    await vi.waitFor(() => expect(localStorage.getItem(accessTokenKey)).toBe('token-2'));
    expect(renewals()).toBe(2);
    await wait(29 * MINUTE - 1000);
    expect(session.loggedIn).toBe(true);
    expect(warning().query()).toBeNull();
  });

  it('counts input as activity, renewing at most once a minute', async () => {
    const { renewals } = server();
    await signedIn();
    await wait(20 * MINUTE);
    for (const event of [
      new PointerEvent('pointerdown', { bubbles: true }),
      new KeyboardEvent('keydown', { bubbles: true, key: 'a' }),
      new WheelEvent('wheel', { bubbles: true }),
    ]) {
      document.body.dispatchEvent(event);
      await wait(10_000);
    }
    // Three inputs within a minute: one renewal now, one trailing the last (a minute after).
    expect(renewals()).toBe(2);
    await wait(MINUTE);
    expect(renewals()).toBe(3);
    await vi.waitFor(() => expect(localStorage.getItem(accessTokenKey)).toBe('token-3'));
    // The last input was at 20:20: the warning comes at 49:20, not at 29:00.
    await wait(msUntil('08:49:19'));
    expect(warning().query()).toBeNull();
    await wait(1000);
    await expect.element(warning()).toBeVisible();
  });

  it('keeps the session while a recording is in progress, however long, renewing its token', async () => {
    const { renewals } = server();
    await signedIn();
    const release = keepSessionActive();
    await wait(2 * 60 * MINUTE);
    expect(session.loggedIn).toBe(true);
    expect(warning().query()).toBeNull();
    // Renewed within every idle limit: about once a minute.
    expect(renewals()).toBeGreaterThanOrEqual(100);
    release();
    await wait(29 * MINUTE);
    await expect.element(warning()).toBeVisible();
    await wait(MINUTE);
    expect(session.loggedIn).toBe(false);
  });

  it('keeps the session while a video plays, not while it is paused', async () => {
    server();
    await signedIn();
    const video = Object.assign(new EventTarget(), { paused: true, ended: false });
    const stop = keepActiveWhilePlaying(video as unknown as HTMLMediaElement);
    await wait(10 * MINUTE);
    video.paused = false;
    video.dispatchEvent(new Event('playing'));
    await wait(60 * MINUTE);
    expect(session.loggedIn).toBe(true);
    video.paused = true;
    video.dispatchEvent(new Event('pause'));
    await wait(30 * MINUTE);
    expect(session.loggedIn).toBe(false);
    stop();
  });

  it('at the limit clears the session, ends it on the server as idle, and says so on /login', async () => {
    const { calls } = server();
    await signedIn();
    await wait(30 * MINUTE);
    expect(session.loggedIn).toBe(false);
    expect(localStorage.getItem(accessTokenKey)).toBeNull();
    await vi.waitFor(() =>
      expect(calls.at(-1)).toEqual({
        key: 'POST /api/logout',
        token: 'Bearer token-1',
        body: { reason: 'idle' },
      }),
    );
    expect(window.location.pathname).toBe('/login');
    // An operator is told that the recordings waiting to upload go on after sign-in.
    expect(window.location.search).toBe(`?session=idle&minutes=30&uploads=waiting${kept}`);
  });

  it('signs out even when the server cannot be told', async () => {
    server();
    await signedIn();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await wait(30 * MINUTE);
    expect(session.loggedIn).toBe(false);
    expect(window.location.pathname).toBe('/login');
  });

  it('activity in another tab keeps this one signed in, without a renewal of its own', async () => {
    const { renewals } = server();
    await signedIn();
    await wait(20 * MINUTE);
    // Another tab of the user's: its input, and the token it renewed, arrive through storage.
    localStorage.setItem(lastActivityKey, String(Date.now()));
    window.dispatchEvent(
      new StorageEvent('storage', { key: lastActivityKey, newValue: String(Date.now()) }),
    );
    window.dispatchEvent(new StorageEvent('storage', { key: accessTokenKey, newValue: 'token-b' }));
    await wait(29 * MINUTE - 1000);
    expect(warning().query()).toBeNull();
    expect(renewals()).toBe(1);
    await wait(MINUTE + 1000);
    expect(session.loggedIn).toBe(false);
  });

  it('signs out as soon as another tab logs out, to /login, without a logout call of its own', async () => {
    const { calls } = server();
    await signedIn();
    await wait(5 * MINUTE);
    // The other tab's Log out removes the token the tabs share.
    localStorage.removeItem(accessTokenKey);
    window.dispatchEvent(new StorageEvent('storage', { key: accessTokenKey, newValue: null }));
    expect(session.loggedIn).toBe(false);
    expect(session.info).toBeNull();
    expect(window.location.pathname).toBe('/login');
    expect(window.location.search).toBe(`?session=other-tab${kept}`);
    // Nothing left running here either: no warning, no sign-out, no call at the limit.
    await wait(30 * MINUTE);
    expect(warning().query()).toBeNull();
    expect(calls.map((call) => call.key)).toEqual(['POST /api/session/renew']);
  });

  it('another tab’s sign-out at the idle limit shows the idle sign-out here, sending nothing', async () => {
    const { calls } = server();
    await signedIn();
    await wait(30 * MINUTE - 1);
    // The other tab's timer came first: the limit is reached, this tab's timer not yet run.
    vi.setSystemTime(Date.now() + 1);
    localStorage.removeItem(accessTokenKey);
    window.dispatchEvent(new StorageEvent('storage', { key: accessTokenKey, newValue: null }));
    expect(session.loggedIn).toBe(false);
    expect(window.location.search).toBe(`?session=idle&minutes=30&uploads=waiting${kept}`);
    await wait(MINUTE);
    expect(calls.map((call) => call.key)).toEqual(['POST /api/session/renew']);
  });

  it('follows a limit the server changed (told with a renewal)', async () => {
    server(() => Response.json({ token: 'token-short', idleMinutes: 10 }));
    await signedIn();
    await vi.waitFor(() => expect(session.idleMinutes).toBe(10));
    await wait(9 * MINUTE);
    await expect.element(warning()).toBeVisible();
    await wait(MINUTE);
    expect(session.loggedIn).toBe(false);
    expect(window.location.search).toBe(`?session=idle&minutes=10&uploads=waiting${kept}`);
  });

  it('a renewal refused with 401 ends the session as any call does (spec §4)', async () => {
    server(() => Response.json({ message: 'Invalid or expired token' }, { status: 401 }));
    await signedIn();
    await vi.waitFor(() => expect(session.loggedIn).toBe(false));
    expect(window.location.search).toBe(`?session=ended${kept}`);
  });
});

/** Milliseconds from now (the fake clock) to `time` on the test's day. */
function msUntil(time: string) {
  return Date.parse(`2026-03-02T${time}Z`) - Date.now();
}
