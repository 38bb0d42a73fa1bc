import { ApiError } from '../../lib/api-client.ts';
import { authStrings } from './strings.ts';

/** Spec §8 login catalogue; a network failure (status 0) is one of the "other failures". */
export function loginErrorMessage(status: number): string {
  if (status === 401) return authStrings.login401;
  if (status === 400) return authStrings.login400;
  if (status >= 500) return authStrings.login5xx;
  return authStrings.loginOther;
}

/** Spec §8 change-password catalogue. */
export function changePasswordErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return authStrings.change401;
    return error.serverMessage ?? authStrings.changeOther;
  }
  return error instanceof Error && error.message ? error.message : authStrings.changeErrorFallback;
}
