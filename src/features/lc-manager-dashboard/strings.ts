import type { ReviewDecision } from './api/review-inspection.ts';

/** LC manager dashboard strings (spec §2, §4, §5, §8). */
export const lcStrings = {
  title: 'Line Clearance Manager Dashboard',
  createNewLineClearance: 'Create New Line Clearance',
  manageOperators: 'Manage Operators',
  tabsLabel: 'Your records',
  lineClearancesTab: 'Line Clearances',
  operatorsTab: 'Operators',
  inspectionsTab: 'Inspections',
  edit: 'Edit',
  assign: 'Assign',
  assignAreas: 'Assign Areas',
  delete: 'Delete',
  view: 'View',
  approve: 'Approve',
  reject: 'Reject',
  save: 'Create',
  noDescription: 'No description',
  noLocation: 'No location specified',
  noOperators: 'No operators assigned',
  noAreas: 'No areas assigned',
  noEmail: 'No email',
  unknown: 'Unknown',
  unknownLine: 'Unknown Line',
  id: 'ID',
  status: 'Status',
  description: 'Description',
  location: 'Location',
  operators: 'Operators',
  role: 'Role',
  email: 'Email',
  areas: 'Areas',
  operator: 'Operator',
  date: 'Date',
  notes: 'Operator notes',
  name: 'Name',
  password: 'Password',
  filterByDateRange: 'Filter by date range',
  clearFilters: 'Clear Filters',
  createLineClearance: 'Create New Line Clearance',
  createOperator: 'Create New Operator',
  lineClearanceNameRequired: 'Please enter a name for the line clearance',
  requiredFields: 'Please fill in all required fields',
  editLineClearance: 'Edit line clearance',
  assignOperators: 'Assign operators',
  editOperator: 'Edit operator',
} as const;

/** Spec §4 review notes and §8 toasts, by decision. */
export const reviewText: Record<
  ReviewDecision,
  { notes: string; success: string; failure: string }
> = {
  approve: {
    notes: 'Approved by LC Manager',
    success: 'Inspection approved successfully',
    failure: 'Failed to approve inspection',
  },
  reject: {
    notes: 'Rejected by LC Manager',
    success: 'Inspection rejected successfully',
    failure: 'Failed to reject inspection',
  },
};

/** Spec §9: LC manager dialogs are 90vw wide, at most 600px. */
export const lcDialogSize = { width: '90vw', maxWidth: '600px' } as const;
