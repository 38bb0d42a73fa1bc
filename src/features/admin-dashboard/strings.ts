/** Admin / factory-manager dashboard strings (spec §2, §5, §8). */
import { newPasswordHint } from '../../lib/password-rule.ts';

export const adminStrings = {
  createNewArea: 'Create New Area',
  manageLcManagers: 'Manage LC Managers',
  createNewLineClearance: 'Create New Line Clearance',
  assignOperators: 'Assign Operators',
  tabsLabel: 'Records',
  lineClearancesTab: 'Line Clearances',
  usersTab: 'Users',
  devicesTab: 'Devices',
  videosTab: 'Videos',
  edit: 'Edit',
  delete: 'Delete',
  view: 'View',
  refresh: 'Refresh',
  /** The Users tab's access review export (docs/permissions.md). */
  exportCsv: 'Export CSV',
  noDescription: 'No description',
  noLocation: 'No location specified',
  noEmail: 'No email',
  noneAssigned: 'None assigned',
  unknown: 'Unknown',
  unknownLine: 'Unknown Line',
  id: 'ID',
  type: 'Type',
  device: 'Device',
  user: 'User',
  line: 'Line',
  duration: 'Duration',
  size: 'Size',
  /** A submitted recording whose file has not arrived (size 0 until the verified upload). */
  fileNotUploaded: 'File not uploaded yet',
  relatedData: 'Related data',
  name: 'Name',
  description: 'Description',
  location: 'Location',
  status: 'Status',
  /** The line's manager: the lc_manager who signs its inspections (docs/permissions.md). */
  lcManager: 'LC manager',
  noManagerOption: '— none —',
  noManager: 'none',
  email: 'Email',
  roles: 'Roles',
  password: 'Password',
  /** Under the create form's password, prefilled with the spec's placeholder (refused if kept). */
  temporaryPasswordHint: `${newPasswordHint} Type a temporary password to give to the user, who chooses their own at the first sign-in.`,
  lineClearances: 'Line clearances',
  /** An LC manager's card: the lines naming it as their manager. */
  manages: 'Manages',
  managesNone: 'No line names this manager',
  selectLineClearances: 'Select line clearances',
  selectRoles: 'Select roles',
  editLineClearance: 'Edit Line Clearance',
  createLineClearance: 'Create New Line Clearance',
  editUser: 'Edit User',
  createUser: 'Create New User',
  editDevice: 'Edit Device',
  lineClearanceNameRequired: 'Please enter a name for the line clearance',
  userNameRequired: 'Please enter a name for the user',
  deviceNameRequired: 'Please enter a name for the device',
  roleRequired: 'Please choose at least one role for the user',
  invalidVideoId: 'Invalid video ID',
  confirmDeleteVideo:
    'Are you sure you want to delete this video? Its predictions, reports, floorplans, keyframes and results will also be deleted.',
  videoDeleted: 'Video deleted successfully.',
  /** After the browser's confirmation: why, kept as the reason of the deletion's audit entry. */
  deleteVideoTitle: 'Delete video',
  /** Beside a disabled Delete: the video of an approved or rejected inspection is kept. */
  signedEvidenceKept: 'Signed evidence: kept (the video of an approved or rejected inspection)',
  deletedPrefix: 'Deleted:',
  unlock: 'Unlock',
  locked: 'Locked',
  deactivated: 'Deactivated',
  accountStatus: 'Account status',
  userUnlocked: 'Account unlocked successfully',
  unlockFailed: 'Failed to unlock account',
  /** Why a lock is lifted early (an account locked by wrong passwords may be someone guessing). */
  unlockTitle: 'Why is this account unlocked?',
  passwordSection: 'Password',
  resetPassword: 'Reset password',
  temporaryPassword: 'New temporary password',
  /** What a reset does (PUT /api/users/{id} with a password revokes every token of the user). */
  resetExplained: (name: string) =>
    `Sets it at once, not on Save. Every session of ${name} ends: ${name} is signed out on every device, signs in with this password and must then choose their own before anything else.`,
  resetWhileLocked:
    'The account is locked after failed sign-ins: Unlock it on its card too, or signing in fails until the lock ends.',
  confirmReset: 'Confirm reset',
  resetQuestion: (name: string) =>
    `Reset the password of ${name}? Every session of ${name} ends now.`,
  back: 'Back',
  cancel: 'Cancel',
  passwordReset: 'Password reset successfully',
  passwordResetDone: (name: string) =>
    `Password reset. ${name} is signed out everywhere and signs in with the new password.`,
  ownPasswordInProfile: 'Your own password is changed in Profile, with your current one.',
  /** The security alerts panel (21 CFR 11.300(d); docs/permissions.md "Security alerts"). */
  securityAlerts: 'Security alerts',
  securityEvents: (count: number) =>
    count === 0 ? 'No security events' : `${count} security event${count === 1 ? '' : 's'}`,
  sinceReview: (events: string, by: string, at: string) =>
    `${events} since the last review (reviewed by ${by}, ${at})`,
  noneReviewedYet: (events: string) => `${events}, none reviewed yet`,
  newestShown: (shown: number) =>
    `The newest ${shown} are listed here; the audit trail has them all.`,
  accountLockedAlert: (who: string, until: string) =>
    `Account locked after failed sign-ins: ${who}, until ${until}`,
  addressBlockedAlert: (address: string) =>
    `Sign-ins blocked from address ${address} after repeated failures`,
  accessRefusedAlert: (who: string, route: string) => `Access refused: ${who}, ${route}`,
  /** server/reports/signed-after-reset.ts: someone who reset the password may have signed. */
  signedAfterResetAlert: (
    signer: string,
    meaning: string,
    inspection: string,
    hours: number,
    resetBy: string,
    resetAt: string,
  ) =>
    `Signed within ${hours} h of a password reset by someone else: ${signer} ${meaning} inspection ${inspection}; ${resetBy} reset the password ${resetAt}. Ask the signer whether it was them.`,
  /** A refusal's later repeats, counted into one entry (server/audit/refusals.ts). */
  refusedAgain: (times: number) => `, then ${times} more time${times === 1 ? '' : 's'}`,
  someone: 'someone',
  lockedAccounts: 'Locked now',
  lockedAccount: (who: string, until: string) => `${who}, locked until ${until}`,
  openAuditTrail: 'Open the audit trail',
  markReviewed: 'Mark as reviewed',
  markingReviewed: 'Marking as reviewed…',
  alertsReviewed: 'Security alerts marked as reviewed',
  reviewFailed: 'Failed to mark the security alerts as reviewed',
  /** The line clearance overview (docs/reports.md, "Line clearance overview"). */
  lineOverview: 'Line clearance overview',
  lineOverviewCaption:
    'Line clearances, active ones first: LC manager, last signed result, pending inspections and the last 30 days',
  /** The table's frame, named when it scrolls sideways (the section bears the title). */
  lineOverviewTable: 'Overview by line',
  lineOverviewLoadFailed: 'Failed to load the line clearance overview',
  lineOverviewUnavailable: 'The overview could not be loaded.',
  loadingLineOverview: 'Loading the line clearance overview…',
  refreshLineOverview: 'Refresh the line clearance overview',
  countedAt: (time: string) => `Counted at ${time}.`,
  noLines: 'No line clearances yet.',
  totalPending: 'Pending',
  totalOverdue: (hours: number) => `Overdue (waiting over ${hours} h)`,
  totalRejections: (days: number) => `Rejections, last ${days} days`,
  lastSigned: 'Last signed',
  pending: 'Pending',
  recent: (days: number) => `Last ${days} days`,
  noneSigned: 'None signed yet',
  noPending: 'None',
  signedBy: (time: string, name: string) => `${time}, ${name}`,
  openReport: 'Open report',
  openLastReport: (line: string) => `Open report, last signed on ${line}`,
  pendingCount: (count: number) => `${count} pending`,
  pendingOn: (count: string, line: string) => `${count} on ${line}, oldest first`,
  waiting: (age: string) => `oldest waiting ${age}`,
  overdueCount: (count: number) => `${count} overdue`,
  recentCounts: (inspections: number, rejections: number) =>
    `${inspections} inspection${inspections === 1 ? '' : 's'}, ${rejections} rejected`,
} as const;

/** PUT /api/users status values with their labels; a deactivated account cannot sign in. */
export const accountStatusLabels = { active: 'Active', deactivated: 'Deactivated' } as const;
