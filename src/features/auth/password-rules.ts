import { newPasswordProblem } from '../../lib/password-rule.ts';
import type { ToastSeverity } from '../../stores/toasts.ts';
import { authStrings } from './strings.ts';

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** The fields in the form's order, where a missing one is looked for. */
const passwordFields = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

export interface PasswordProblem {
  severity: ToastSeverity;
  summary: string;
  detail: string;
  /** The fields it concerns, where it is also said. */
  fields: readonly (keyof PasswordChange)[];
}

/**
 * Spec §5, checked in this order: all fields, then match, then length. Spaces count as password
 * characters, so only an empty field is missing.
 */
export function passwordChangeProblem(change: PasswordChange): PasswordProblem | null {
  const { newPassword, confirmPassword } = change;
  const missing = passwordFields.filter((key) => !change[key]);
  if (missing.length > 0) {
    return {
      severity: 'warn',
      summary: authStrings.missingFieldsTitle,
      detail: authStrings.missingFieldsDetail,
      fields: missing,
    };
  }
  if (newPassword !== confirmPassword) {
    return {
      severity: 'error',
      summary: authStrings.mismatchTitle,
      detail: authStrings.mismatchDetail,
      fields: ['confirmPassword'],
    };
  }
  // The one rule for every new password (lib/password-rule.ts), in the spec's words.
  const weak = newPasswordProblem(newPassword);
  if (weak) {
    return {
      severity: 'warn',
      summary: authStrings.weakTitle,
      detail: weak,
      fields: ['newPassword'],
    };
  }
  return null;
}
