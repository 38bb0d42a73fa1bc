import { navigate } from 'wouter/use-browser-location';
import { signOut, storedAccessToken } from '../stores/session.ts';

/** A failed call: the HTTP status (0 when the network failed) and the server's `{ message }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  body?: unknown;
  /**
   * Spec §4: a 401 anywhere signs out and goes to /login. Calls where 401 means something else
   * (wrong current password, failed login, restore that must fail silently) turn this off.
   */
  signOutOn401?: boolean;
  /** Login sends no token: there is none yet. */
  withToken?: boolean;
}

async function readServerMessage(response: Response): Promise<string | null> {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && 'message' in body) {
      const { message } = body as { message: unknown };
      return typeof message === 'string' && message.length > 0 ? message : null;
    }
  } catch {
    // Not JSON (e.g. a proxy's HTML error page): there is no server message to show.
  }
  return null;
}

/** Sends a call and answers the ok response; a failure becomes an ApiError (and 401 signs out). */
async function send(
  method: string,
  url: string,
  options: RequestOptions,
  accept: string,
): Promise<Response> {
  const { body, signOutOn401 = true, withToken = true } = options;
  const headers: Record<string, string> = { Accept: accept };
  const token = withToken ? storedAccessToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    throw new ApiError(0, `${method} ${url} failed: ${String(cause)}`, null);
  }
  if (!response.ok) {
    const serverMessage = await readServerMessage(response);
    if (response.status === 401 && signOutOn401) {
      signOut();
      navigate('/login');
    }
    throw new ApiError(
      response.status,
      serverMessage ?? `${method} ${url} answered ${response.status}`,
      serverMessage,
    );
  }
  return response;
}

async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, url, options, 'application/json');
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text.length > 0 ? JSON.parse(text) : undefined) as T;
}

/** The one HTTP client: JSON in and out, bearer token from local storage, central 401 handling. */
export const api = {
  get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', url, { ...options, body }),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', url, { ...options, body }),
  patch: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', url, { ...options, body }),
  delete: <T>(url: string, options?: RequestOptions) => request<T>('DELETE', url, options),
  /** A GET whose answer is read as raw bytes (e.g. a keyframes file for the path worker). */
  bytes: async (url: string, options?: RequestOptions) =>
    new Uint8Array(await (await send('GET', url, options ?? {}, '*/*')).arrayBuffer()),
};

/** Path segments from data (ids, file names) are escaped once, here. */
export const segment = (value: string) => encodeURIComponent(value);
