import { toastError, toastLife, toastSuccess } from '../stores/toasts.ts';
import { ApiError } from './api-client.ts';

/** The success text, fixed or built from the call's answer (e.g. the video deletion summary). */
export type SuccessText<T> = string | ((result: T) => string);

/**
 * Runs a call that changes data and reports it with the spec's success or error toast.
 * The server's own message, when it gives one (e.g. which field is wrong), follows the spec text.
 * Returns whether it succeeded.
 */
export async function runAction<T>(
  action: () => Promise<T>,
  success: SuccessText<T>,
  failure: string,
  successLife: number = toastLife.standard,
): Promise<boolean> {
  return (await tryAction(action, success, failure, successLife)).done;
}

/** How a call run by `tryAction` ended: a failure keeps its error and the toast's text. */
export type ActionOutcome =
  | { done: true }
  | {
      done: false;
      error: unknown;
      /** The error toast's text (`failureText`); null after a 401, which has signed out. */
      said: string | null;
    };

/** How a call's outcome is said: the spec's toasts, or a screen's own way (the floor plans' alerts). */
export interface ActionVoice {
  /** The failure's words; null says nothing (a 401 has signed out). */
  failureText: (failure: string, error: unknown) => string | null;
  failed: (text: string) => void;
  succeeded: (text: string, life: number) => void;
}

/**
 * The spec's toasts. After no answer to a change they say `check` where 'Check the list before
 * trying again.' would not fit: what shows the user whether it was saved where they are.
 */
export const toastsChecking = (check?: string): ActionVoice => ({
  failureText: (failure, error) => failureText(failure, error, check),
  failed: toastError,
  succeeded: toastSuccess,
});

const toasts = toastsChecking();

/**
 * `runAction` for a dialog that also says a failure inside itself (a toast outside a modal is
 * hidden from screen readers), at the field the server refused when it names one.
 */
export async function tryAction<T>(
  action: () => Promise<T>,
  success: SuccessText<T>,
  failure: string,
  successLife: number = toastLife.standard,
  voice: ActionVoice = toasts,
): Promise<ActionOutcome> {
  let result: T;
  try {
    result = await action();
  } catch (error) {
    const said = voice.failureText(failure, error);
    if (said) voice.failed(said);
    return { done: false, error, said };
  }
  voice.succeeded(typeof success === 'string' ? success : success(result), successLife);
  return { done: true };
}

/** Whether the server refused the call for one field: its message starts with the field's path. */
export function refusesField(error: unknown, field: `body.${string}`): boolean {
  return error instanceof ApiError && Boolean(error.serverMessage?.startsWith(field));
}

/**
 * The error toast's text for a failed call: the spec's text, then the server's message when it
 * gave one. Null for a 401, which has already signed out and gone to /login.
 */
export function failureText(
  failure: string,
  error: unknown,
  check = 'Check the list before trying again.',
): string | null {
  if (error instanceof ApiError && error.status === 401) return null;
  const reason = error instanceof ApiError ? (error.serverMessage ?? noAnswer(error, check)) : null;
  return reason ? `${failure}: ${reason}` : failure;
}

/** Whether a call got no answer (the network, or none in time): a change may be saved all the same. */
export const unanswered = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 0;

/**
 * Why a call got no answer, in a user's words. A change may have reached the server before the
 * connection was lost, so the user is told (`check`) where to look before sending it again.
 */
function noAnswer(error: ApiError, check: string): string | null {
  if (!unanswered(error)) return null;
  return error.method === 'GET'
    ? 'the server could not be reached. Check the connection and try again.'
    : `no answer from the server, so it is not known whether this was saved. ${check}`;
}

/** Spec §5: every delete asks the browser for confirmation first. */
export async function confirmThenRun<T>(
  question: string,
  action: () => Promise<T>,
  success: SuccessText<T>,
  failure: string,
  successLife?: number,
): Promise<boolean> {
  if (!window.confirm(question)) return false;
  return runAction(action, success, failure, successLife);
}
