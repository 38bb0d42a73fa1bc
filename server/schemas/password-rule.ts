// The rule for a new password, shared at runtime by the server's schemas and the web app's forms
// (a pure module without imports, so the web app can bundle it).

/** Spec §9: the minimum length of a new password (create, admin reset, change). */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Spec §9: the value the create-user form prefills as the password. It is published (in the spec
 * and this code), so it is refused as a password: kept, whoever signed in first would choose the
 * account's own password.
 */
export const PREFILLED_PASSWORD = 'Set-at-first-sign-in';

/**
 * The shortest part of an email or a name that a new password may not contain: shorter ones
 * ('op', 'li') are inside too many good passwords to refuse them.
 */
export const MIN_PERSONAL_PART_LENGTH = 3;

export const samePasswordProblem = 'The new password must differ from the current one';
export const emailInPasswordProblem =
  'The new password must not contain your email address or the part before the @';
export const nameInPasswordProblem = 'The new password must not contain your name';

/** Whose password it is: what anyone who knows them tries first. */
export interface PasswordOwner {
  email: string;
  name: string;
}

const atLeast = (part: string) => part.length >= MIN_PERSONAL_PART_LENGTH;

/** The name and each word of it ('Daniel Okafor': 'daniel', 'okafor'), lower case, if long enough. */
function nameParts(name: string): string[] {
  const whole = name.trim().toLowerCase();
  return [whole, ...whole.split(/[^\p{L}\p{N}]+/u)].filter(atLeast);
}

/**
 * What is wrong with a password a user chooses for itself (docs/signatures.md, rule 3), in the
 * user's words, or null. Called once the current password is known to be right: keeping the
 * current one keeps a password someone else chose (a reset), and one's own email or name is what
 * anyone who knows the account tries first. The email and the name match in any case.
 */
export function ownNewPasswordProblem(
  change: { currentPassword: string; newPassword: string },
  owner: PasswordOwner,
): string | null {
  const { currentPassword, newPassword } = change;
  const password = newPassword.toLowerCase();
  // In any case too: whoever chose the current one would try its case changes first.
  if (password === currentPassword.toLowerCase()) return samePasswordProblem;
  const email = owner.email.trim().toLowerCase();
  // The whole address, and the part before the @ when it is long enough.
  const emailParts = [email, email.slice(0, Math.max(0, email.lastIndexOf('@')))].filter(atLeast);
  if (emailParts.some((part) => password.includes(part))) return emailInPasswordProblem;
  if (nameParts(owner.name).some((part) => password.includes(part))) return nameInPasswordProblem;
  return null;
}
