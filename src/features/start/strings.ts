import { paths } from '../../config/paths.ts';
import type { Role } from '../../lib/roles.ts';

/** Start page strings (spec §2). */
export const startStrings = {
  title: 'Line Clearance Inspection System',
  signedOutWelcome: 'Welcome',
  signedOutDescription:
    'Record, analyse and review line clearance inspections: who checked which line, when, and who verified it.',
  readyTitle: 'Ready to Begin?',
  readyText: 'Sign in with the Sign In button at the top-right to start.',
  quickActions: 'Quick Actions',
  signOut: 'Sign Out',
  recentInspections: 'Recent Inspections',
  areaManagement: 'Area Management',
  features: 'Features',
} as const;

/** Welcome line and description by primary role; `default` covers any other role. */
export const welcomeByRole: Record<Role | 'default', { welcome: string; description: string }> = {
  operator: {
    welcome: 'Welcome back, Operator',
    description:
      'Start a line clearance inspection: scan the QR codes and record your walk of the line.',
  },
  lc_manager: {
    welcome: 'Welcome back, Line Clearance Manager',
    description: 'Review inspection reports, approve or reject inspections and manage your areas.',
  },
  factory_manager: {
    welcome: 'Welcome back, Factory Manager',
    description: 'Oversee every line clearance, user and device in the factory.',
  },
  admin: {
    welcome: 'Welcome back, Administrator',
    description: 'Manage users, line clearances, devices, videos and floorplans.',
  },
  audit: {
    welcome: 'Welcome back, Auditor',
    description: 'Review inspections, videos and reports.',
  },
  default: {
    welcome: 'Welcome back',
    description: 'Open your dashboard to continue.',
  },
};

/**
 * Spec §2: the main quick action by primary role, each to a page the route table opens to that
 * role (docs/web-app.md, Decisions). §2 sends "any other role 'Dashboard' to /user" and the
 * factory manager's 'Factory Overview' to /admin, which the same table keeps the auditor and the
 * factory manager out of: the auditor's goes to /audit, its own dashboard, and the factory
 * manager's to /factory-manager, which shows the same admin page.
 */
export const mainActionByRole: Record<Role | 'default', { label: string; href: string }> = {
  operator: { label: 'Start Inspection', href: paths.operator },
  lc_manager: { label: 'Review Reports', href: paths.reports },
  factory_manager: { label: 'Factory Overview', href: paths.factoryManager },
  admin: { label: 'Admin Dashboard', href: paths.admin },
  audit: { label: 'Dashboard', href: paths.audit },
  default: { label: 'Dashboard', href: paths.user },
};

/** Spec §1/§2 feature grid for signed-out visitors. */
export const featureGrid = [
  { name: 'Video Recording', text: 'Operators record the inspection walk on a phone or tablet.' },
  { name: 'QR Code Scanning', text: 'Scan QR codes to register devices and mark checkpoints.' },
  { name: 'AI Analysis', text: 'Path tracking through the line and detection of left-over items.' },
  { name: 'Reports', text: 'Inspection reports with an interactive timeline and path view.' },
  { name: 'Video Library', text: 'Every inspection video with its path and detections.' },
  { name: 'Quick Search', text: 'Filter inspections and videos by date, user and line.' },
] as const;
