import { ApiError } from '../../../lib/api-client.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  type ActionOutcome,
  type ActionVoice,
  type SuccessText,
  tryAction,
} from '../../../lib/run-action.ts';
import { wizardStrings as w } from '../strings.ts';

/**
 * Spec §8: 'Upload failed', 'Save failed', 'Delete failed' with the status text, and the server's
 * reason when it gave one (e.g. which field it rejected). Null for a 401: the client has already
 * signed out and gone to /login.
 */
export function failureText(prefix: string, error: unknown): string | null {
  if (!(error instanceof ApiError)) {
    return `${prefix}: ${errorText(error)}`;
  }
  if (error.status === 401) return null;
  if (error.status === 0) return `${prefix}: ${w.networkError}`;
  const status = error.statusText || `HTTP ${error.status}`;
  // The server states its size limit in a 413's message; a proxy's 413 says nothing of it.
  const reason = error.serverMessage ?? (error.status === 413 ? w.imageTooLarge : null);
  return reason ? `${prefix}: ${status} (${reason})` : `${prefix}: ${status}`;
}

/** The alert for a failure whose meaning the app knows better than the server's words. */
export function failureWithReason(prefix: string, error: unknown, reason: string): string | null {
  const text = failureText(prefix, error);
  if (text === null || !(error instanceof ApiError) || error.status === 0) return text;
  return `${prefix}: ${error.statusText || `HTTP ${error.status}`} (${reason})`;
}

/** Floor-plan failures are browser alerts (spec §8). */
export function alertFailure(prefix: string, error: unknown): void {
  const text = failureText(prefix, error);
  if (text) window.alert(text);
}

const alerts: ActionVoice = {
  failureText,
  failed: (text) => window.alert(text),
  succeeded: (text) => window.alert(text),
};

/** `tryAction` with the floor-plan screen's browser alerts (spec §8) instead of toasts. */
export const alertAction = <T>(
  action: () => Promise<T>,
  success: SuccessText<T>,
  failure: string,
): Promise<ActionOutcome> => tryAction(action, success, failure, undefined, alerts);
