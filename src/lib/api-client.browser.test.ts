import { afterEach, describe, expect, it, vi } from 'vitest';
import { accessTokenKey } from '../stores/session.ts';
import { ApiError, api } from './api-client.ts';
import { failureText } from './run-action.ts';

afterEach(() => {
  localStorage.removeItem(accessTokenKey);
  vi.unstubAllGlobals();
});

function answer(response: Response) {
  const seen: RequestInit[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    seen.push(init);
    return response;
  });
  return seen;
}

describe('api client', () => {
  it('sends the stored token as a bearer and JSON bodies', async () => {
    localStorage.setItem(accessTokenKey, 'tok');
    const seen = answer(new Response(JSON.stringify({ ok: 1 }), { status: 200 }));
    await expect(api.post('/api/x', { a: 1 })).resolves.toEqual({ ok: 1 });
    expect(seen[0]?.headers).toMatchObject({
      Authorization: 'Bearer tok',
      'Content-Type': 'application/json',
    });
    expect(seen[0]?.body).toBe('{"a":1}');
  });

  it('can leave the token out (login)', async () => {
    localStorage.setItem(accessTokenKey, 'tok');
    const seen = answer(new Response('{}', { status: 200 }));
    await api.post('/api/login', {}, { withToken: false });
    expect(seen[0]?.headers).not.toHaveProperty('Authorization');
  });

  it("carries the server's { message } and status on failure", async () => {
    answer(new Response(JSON.stringify({ message: 'name must not be empty' }), { status: 400 }));
    const error = await api.put('/api/line-clearances/1', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, serverMessage: 'name must not be empty' });
  });

  it('has no server message for a non-JSON error page, and status 0 when offline', async () => {
    answer(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api.get('/api/users')).rejects.toMatchObject({ status: 502, serverMessage: null });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/api/users')).rejects.toMatchObject({ status: 0, serverMessage: null });
  });

  it('says of an unanswered change that it may have been saved, of a read to try again', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const read = await api.get('/api/users').catch((error: unknown) => error);
    expect(failureText('Failed to load users', read)).toBe(
      'Failed to load users: the server could not be reached. Check the connection and try again.',
    );
    const change = await api.post('/api/line-clearances', {}).catch((error: unknown) => error);
    expect(failureText('Failed to create line clearance', change)).toBe(
      'Failed to create line clearance: no answer from the server, so it is not known whether this was saved. Check the list before trying again.',
    );
  });

  it('sends a change with a signal that gives up on it (a lost connection), a read without', async () => {
    const seen: RequestInit[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response('{}', { status: 200 });
    });
    await api.put('/api/devices/d1', {});
    await api.get('/api/devices');
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]?.signal?.aborted).toBe(false);
    expect(seen[1]?.signal).toBeUndefined();
  });

  it('keeps the session on a 401 when told to (wrong current password)', async () => {
    localStorage.setItem(accessTokenKey, 'tok');
    answer(
      new Response(JSON.stringify({ message: 'Current password is incorrect' }), { status: 401 }),
    );
    await expect(
      api.post('/api/change-password', {}, { signOutOn401: false }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(localStorage.getItem(accessTokenKey)).toBe('tok');
  });

  it('a GET sent elsewhere gets the same headers, and its failures are handled the same', async () => {
    localStorage.setItem(accessTokenKey, 'tok');
    const seen: Record<string, string>[] = [];
    const value = await api.getElsewhere('/api/x.txt', async (headers) => {
      seen.push(headers);
      return { ok: true, value: 7 };
    });
    expect(value).toBe(7);
    expect(seen).toEqual([{ Accept: '*/*', Authorization: 'Bearer tok' }]);

    const offline = api.getElsewhere('/api/x.txt', () => Promise.reject(new TypeError('x')));
    await expect(offline).rejects.toMatchObject({ status: 0, serverMessage: null });
    const refused = api.getElsewhere('/api/x.txt', async () => ({
      ok: false as const,
      status: 401,
      statusText: 'Unauthorized',
      body: JSON.stringify({ message: 'Invalid or expired token' }),
    }));
    const testPage = window.location.href;
    try {
      await expect(refused).rejects.toMatchObject({
        status: 401,
        statusText: 'Unauthorized',
        serverMessage: 'Invalid or expired token',
      });
      // Spec §4: signed out and sent to /login, as by any other call.
      expect(localStorage.getItem(accessTokenKey)).toBeNull();
      expect(window.location.pathname).toBe('/login');
      // Where the login page says the last action was not carried out, and returns to the page.
      const query = new URLSearchParams(window.location.search);
      expect(query.get('session')).toBe('ended');
      expect(query.get('next')).toBe(new URL(testPage).pathname + new URL(testPage).search);
    } finally {
      window.history.replaceState(null, '', testPage);
    }
  });
});
