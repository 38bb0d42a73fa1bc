import { ApiError } from '../../../lib/api-client.ts';
import { wizardStrings as w } from '../strings.ts';

/**
 * Spec §8: 'Upload failed', 'Save failed', 'Delete failed' with the status text, and the server's
 * reason when it gave one (e.g. which field it rejected). Null for a 401: the client has already
 * signed out and gone to /login.
 */
export function failureText(prefix: string, error: unknown): string | null {
  if (!(error instanceof ApiError)) {
    return `${prefix}: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (error.status === 401) return null;
  if (error.status === 0) return `${prefix}: ${w.networkError}`;
  const status = error.statusText || `HTTP ${error.status}`;
  return error.serverMessage
    ? `${prefix}: ${status} (${error.serverMessage})`
    : `${prefix}: ${status}`;
}

/** Floor-plan failures are browser alerts (spec §8). */
export function alertFailure(prefix: string, error: unknown): void {
  const text = failureText(prefix, error);
  if (text) window.alert(text);
}
