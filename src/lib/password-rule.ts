import { MIN_PASSWORD_LENGTH, PREFILLED_PASSWORD } from '../../server/schemas/password-rule.ts';

/**
 * Spec §5's wording ('Weak password' in the profile dialog), also shown under any field that sets
 * a new password. The length is the server's own rule (spec §9: 8).
 */
export const passwordTooShort = `Password should be at least ${MIN_PASSWORD_LENGTH} characters`;

/** The hint under a field that sets a new password, so the rule is known before it is broken. */
export const newPasswordHint = `At least ${MIN_PASSWORD_LENGTH} characters.`;

/**
 * The hint under the field where users choose their own password (profile, own-password page): the
 * server's further rules for it (server/schemas/password-rule.ts, and the password history, whose
 * length PASSWORD_HISTORY the app is not told), so they are known before one refuses the password.
 */
export const ownNewPasswordHint = `${newPasswordHint} It may not contain your name or your email address (nor the part before the @), and may not be your current password or one of your last passwords.`;

/** Said when the create-user form's prefilled password is kept (the server refuses it). */
export const prefilledPasswordKept =
  'Replace this placeholder with a temporary password and give it to the user, who then chooses their own: the placeholder is published, so anyone could sign in with it first';

/** What is wrong with a new password, in the user's words, or null. Spaces count as characters. */
export function newPasswordProblem(password: string): string | null {
  if (password === PREFILLED_PASSWORD) return prefilledPasswordKept;
  return password.length < MIN_PASSWORD_LENGTH ? passwordTooShort : null;
}
