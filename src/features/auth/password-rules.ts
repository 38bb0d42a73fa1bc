import { newPasswordProblem } from '../../lib/password-rule.ts';
import type { ToastSeverity } from '../../stores/toasts.ts';
import { authStrings } from './strings.ts';

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export interface PasswordProblem {
  severity: ToastSeverity;
  summary: string;
  detail: string;
}

/**
 * Spec §5, checked in this order: all fields, then match, then length. Spaces count as password
 * characters, so only an empty field is missing.
 */
export function passwordChangeProblem(change: PasswordChange): PasswordProblem | null {
  const { currentPassword, newPassword, confirmPassword } = change;
  if (!currentPassword || !newPassword || !confirmPassword) {
    return {
      severity: 'warn',
      summary: authStrings.missingFieldsTitle,
      detail: authStrings.missingFieldsDetail,
    };
  }
  if (newPassword !== confirmPassword) {
    return {
      severity: 'error',
      summary: authStrings.mismatchTitle,
      detail: authStrings.mismatchDetail,
    };
  }
  // The one rule for every new password (lib/password-rule.ts), in the spec's words.
  const weak = newPasswordProblem(newPassword);
  if (weak) return { severity: 'warn', summary: authStrings.weakTitle, detail: weak };
  return null;
}
