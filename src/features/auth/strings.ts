/** Every user-facing string of sign-in and the profile dialog, exactly as spec §2, §5 and §8 say. */
export const authStrings = {
  loginTitle: 'Sign In',
  loginIntro: 'Sign in with your work email to record and review line clearance inspections.',
  demoNotice:
    "Demo data: this server's accounts (admin@example.com, lcmanager@example.com, operator@example.com and others) all sign in with the published password demo-password, so its records are examples, not GMP records.",
  /** After a 401: whatever the user just did was refused, so nothing was saved or signed. */
  sessionEnded:
    'Your session ended, so your last action was not carried out (nothing was saved or signed). Sign in again to go on.',
  /** Log out in another tab of this browser signs this one out too (shared local storage). */
  signedOutElsewhere:
    'You logged out in another tab or window of this browser, so this one was signed out too: anything typed here and not saved was not saved. Sign in again to go on.',
  /** After the sign-out at the idle limit: what was left open was not saved or signed. */
  signedOutIdle: (minutes: number) =>
    `You were signed out after ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} without activity, so nothing left unsaved was saved or signed. Sign in again to go on.`,
  /** The same, to an operator: the upload queue waits for its user (docs/capture.md). */
  uploadsWait: 'Recordings waiting to upload on this device go on once you sign in again.',
  idleWarningTitle: 'Still there?',
  idleWarning: (timeLeft: string) =>
    `You will be signed out in ${timeLeft} because there was no activity.`,
  staySignedIn: 'Stay signed in',
  email: 'Email',
  password: 'Password',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  submit: 'Log in',
  submitting: 'Logging in...',
  loginFailedTitle: 'Login Failed',
  unexpectedError: 'An unexpected error occurred. Please try again',
  login401: 'Invalid email or password',
  login400: 'Email and password are required',
  login5xx: 'Server error. Please try again later.',
  loginOther: 'Login failed. Please check your connection and try again.',

  /** Instead of every page while the password is one someone else chose (docs/signatures.md, rule 3). */
  ownPasswordTitle: 'Set your own password',
  ownPasswordWhy:
    'Your password was chosen by someone else. Choose your own before you continue: only you may know it.',
  /** The same page when the password is older than the server's PASSWORD_MAX_AGE_DAYS. */
  expiredPasswordTitle: 'Choose a new password',
  expiredPasswordWhy: (days: number) =>
    `Your password is more than ${days} ${days === 1 ? 'day' : 'days'} old. Choose a new one to go on.`,
  logOut: 'Log out',

  profileTitle: 'Profile',
  changePassword: 'Change password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  cancel: 'Cancel',
  updatePassword: 'Update password',
  updating: 'Updating…',
  missingFieldsTitle: 'Missing fields',
  missingFieldsDetail: 'Please fill in all password fields',
  mismatchTitle: 'Password mismatch',
  mismatchDetail: 'New passwords do not match',
  weakTitle: 'Weak password',
  changedTitle: 'Password changed',
  changedDetail: 'Your password has been updated',
  changeErrorTitle: 'Error',
  changeErrorFallback: 'Failed to change password',
  change401: 'Current password is incorrect',
  changeOther: 'Unable to change password. Please try again later.',
  restoring: 'Restoring your session…',
  notPermitted: 'Your role does not give access to that page',
} as const;
