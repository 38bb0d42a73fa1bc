import { navigate } from 'wouter/use-browser-location';
import { signOut, storedAccessToken } from '../stores/session.ts';
import { loginPath, pageToReturnTo } from './login-return.ts';

/**
 * A failed call: the HTTP status (0 when the network failed), the server's `{ message }` and the
 * HTTP status text (e.g. 'Forbidden'; empty when the network failed).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage: string | null,
    readonly statusText = '',
    /** The call's method: with status 0 (no answer), a change may have been done all the same. */
    readonly method: string | null = null,
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
  /** Cancels the call (e.g. a large download superseded by another selection). */
  signal?: AbortSignal;
}

/** Bytes sent so far of a multipart upload. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions extends Omit<RequestOptions, 'body' | 'signal'> {
  onProgress?: (progress: UploadProgress) => void;
}

/** The server's `{ message }` in an answer's body; null when it has none (e.g. an HTML error page). */
export function serverMessageOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
      const { message } = parsed as { message: unknown };
      return typeof message === 'string' && message.length > 0 ? message : null;
    }
  } catch {
    // Not JSON (e.g. a proxy's HTML error page): there is no server message to show.
  }
  return null;
}

/** The query the login page reads as 'the session ended under a call' (spec §4: a 401 signs out). */
export const SESSION_ENDED = 'session=ended';
/** /login's query after a log out in another tab of this browser. */
export const SIGNED_OUT_ELSEWHERE = 'session=other-tab';

/**
 * Spec §4: a 401 signs out and goes to /login, whose page then says why: the action the user just
 * took was not carried out. Also for requests this client does not send (tus uploads).
 */
export function endSession(): void {
  signOut();
  navigate(loginPath(pageToReturnTo(), SESSION_ENDED));
}

/** Every failed answer, from fetch or XHR, ends here: a 401 signs out (spec §4), then the error. */
function failure(
  method: string,
  url: string,
  answer: { status: number; statusText: string; body: string },
  signOutOn401: boolean,
): ApiError {
  const serverMessage = serverMessageOf(answer.body);
  if (answer.status === 401 && signOutOn401) endSession();
  return new ApiError(
    answer.status,
    serverMessage ?? `${method} ${url} answered ${answer.status}`,
    serverMessage,
    answer.statusText,
    method,
  );
}

/** How long a change waits for its answer; the slowest (a signature, under load) take seconds. */
const CHANGE_TIMEOUT_MS = 60_000;

function networkFailure(method: string, url: string, cause: unknown): ApiError {
  return new ApiError(0, `${method} ${url} failed: ${String(cause)}`, null, '', method);
}

function authorization(withToken: boolean): Record<string, string> {
  const token = withToken ? storedAccessToken() : null;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function parseJson<T>(status: number, text: string): T {
  if (status === 204 || text.length === 0) return undefined as T;
  return JSON.parse(text) as T;
}

/** Sends a call and answers the ok response; a failure becomes an ApiError (and 401 signs out). */
async function send(
  method: string,
  url: string,
  options: RequestOptions,
  accept: string,
): Promise<Response> {
  const { body, signOutOn401 = true, withToken = true } = options;
  // A change that hangs (a connection lost mid-way) ends as unanswered instead of keeping its
  // dialog busy for good; reads may stream for long (an exported trail) and have their own signal.
  const signal =
    options.signal ?? (method === 'GET' ? undefined : AbortSignal.timeout(CHANGE_TIMEOUT_MS));
  const headers: Record<string, string> = { Accept: accept, ...authorization(withToken) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    throw networkFailure(method, url, cause);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const { status, statusText } = response;
    throw failure(method, url, { status, statusText, body: text }, signOutOn401);
  }
  return response;
}

async function request<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, url, options, 'application/json');
  return parseJson<T>(response.status, await response.text());
}

/** What a GET sent on another thread answered: its value, or the failed HTTP answer. */
export type ElsewhereAnswer<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; statusText: string; body: string };

/** Sends a GET with these headers on another thread; rejects when the network failed. */
export type SendElsewhere<T> = (headers: Record<string, string>) => Promise<ElsewhereAnswer<T>>;

/** The request's own signal is sendGet's to honour. */
export type ElsewhereOptions = Omit<RequestOptions, 'body' | 'signal'>;

async function getElsewhere<T>(
  url: string,
  sendGet: SendElsewhere<T>,
  options: ElsewhereOptions = {},
): Promise<T> {
  const { signOutOn401 = true, withToken = true } = options;
  let answer: ElsewhereAnswer<T>;
  try {
    answer = await sendGet({ Accept: '*/*', ...authorization(withToken) });
  } catch (cause) {
    throw networkFailure('GET', url, cause);
  }
  if (!answer.ok) throw failure('GET', url, answer, signOutOn401);
  return answer.value;
}

/**
 * POSTs a multipart form through XHR, because fetch cannot report upload progress; the same token
 * and the same failure handling as every other call.
 */
function upload<T>(url: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const { onProgress, signOutOn401 = true, withToken = true } = options;
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(authorization(withToken))) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      const answer = { status: xhr.status, statusText: xhr.statusText, body: xhr.responseText };
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(parseJson<T>(xhr.status, xhr.responseText));
        } catch (cause) {
          reject(networkFailure('POST', url, cause));
        }
      } else {
        reject(failure('POST', url, answer, signOutOn401));
      }
    };
    xhr.onerror = () => reject(networkFailure('POST', url, 'network error'));
    xhr.send(form);
  });
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
  /**
   * A GET sent by another thread (e.g. the path worker downloading a keyframes file, so its body
   * never passes through this one), with the headers this client sends and its failure handling.
   */
  getElsewhere: <T>(url: string, sendGet: SendElsewhere<T>, options?: ElsewhereOptions) =>
    getElsewhere(url, sendGet, options),
  /** A multipart POST (e.g. a floor-plan image) with upload progress. */
  upload: <T>(url: string, form: FormData, options?: UploadOptions) =>
    upload<T>(url, form, options),
};

/** Path segments from data (ids, file names) are escaped once, here. */
export const segment = (value: string) => encodeURIComponent(value);
