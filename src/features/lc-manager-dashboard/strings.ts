/** LC manager dashboard strings (spec §2, §4, §5, §8). */
export const lcStrings = {
  title: 'Line Clearance Manager Dashboard',
  createNewLineClearance: 'Create New Line Clearance',
  manageOperators: 'Manage Operators',
  tabsLabel: 'Your records',
  lineClearancesTab: 'Line Clearances',
  operatorsTab: 'Operators',
  /** The Inspections tab, with how many of this manager's inspections wait for a signature. */
  inspectionsTabWithPending: (pending: number) =>
    pending ? `Inspections (${pending} pending)` : 'Inspections',
  edit: 'Edit',
  assign: 'Assign',
  assignAreas: 'Assign Areas',
  view: 'View',
  approve: 'Approve',
  reject: 'Reject',
  /** Beside a disabled Approve, as the report page words it. */
  onlyRejectable: (blocker: string) => `${blocker}: it can only be rejected.`,
  save: 'Create',
  noDescription: 'No description',
  noLocation: 'No location specified',
  noOperators: 'No operators assigned',
  noAreas: 'No areas assigned',
  noEmail: 'No email',
  unknown: 'Unknown',
  unknownLine: 'Unknown Line',
  id: 'ID',
  signature: 'Signature',
  reviewNotes: 'Review notes',
  status: 'Status',
  description: 'Description',
  location: 'Location',
  operators: 'Operators',
  role: 'Role',
  email: 'Email',
  areas: 'Areas',
  operator: 'Operator',
  date: 'Date',
  waiting: 'Waiting',
  /** Beside the wait, once it passes OVERDUE_AFTER_HOURS (the overview counts the same). */
  overdue: (hours: number) => `Overdue (over ${hours} h)`,
  notes: 'Operator notes',
  name: 'Name',
  password: 'Password',
  operatorPasswordNote:
    'The operator signs in with this password and must then choose their own before anything else: only the operator may know it.',
  filterByDateRange: 'Filter by date range',
  clearFilters: 'Clear Filters',
  statusFilter: 'Filter by status',
  statusFilters: { all: 'All', pending: 'Pending', approved: 'Approved', rejected: 'Rejected' },
  createLineClearance: 'Create New Line Clearance',
  createOperator: 'Create New Operator',
  lineClearanceNameRequired: 'Please enter a name for the line clearance',
  requiredFields: 'Please fill in all required fields',
  /** At each blank field, beside the spec's toast, which does not say which. */
  fieldRequired: (label: string) => `${label} is required.`,
  editLineClearance: 'Edit line clearance',
  assignOperators: 'Assign operators',
  editOperator: 'Edit operator',
  /** Why the Line Clearances and Inspections tabs are empty for one who manages no line. */
  noLineManaged: {
    rule: 'Only the lines you manage as LC manager are listed here.',
    /** Factory managers and admins, who read every line on /reports. */
    seeReports: ['You manage none: see', 'Reports', 'for every line.'],
    /** An LC manager given no line yet. */
    noneYet:
      'You manage none yet: a line you create, or one an administrator makes you the LC manager of, shows here.',
  },
} as const;

/** Spec §9: LC manager dialogs are 90vw wide, at most 600px. */
export const lcDialogSize = { width: '90vw', maxWidth: '600px' } as const;
