import type { Role } from '../lib/roles.ts';

/** Every route path of the app, defined once (spec §2 route table). */
export const paths = {
  home: '/',
  login: '/login',
  admin: '/admin',
  factoryManager: '/factory-manager',
  lcManager: '/lc-manager',
  operator: '/operator',
  audit: '/audit',
  inspection: '/inspection/:areaId',
  inspectionReport: '/inspection-report/:inspectionId',
  user: '/user',
  video: '/video',
  videoWithId: '/video/:videoId',
  videosAlias: '/videos',
  floorplans: '/floorplans',
  reports: '/reports',
  analysis: '/analysis',
} as const;

export const inspectionPath = (areaId: string) => `/inspection/${encodeURIComponent(areaId)}`;
/** A record's whole history in the audit trail (for `trailReaders`). */
export const recordHistoryPath = (inspectionId: string) =>
  `${paths.audit}?record=${encodeURIComponent(inspectionId)}`;
export const inspectionReportPath = (inspectionId: string) =>
  `/inspection-report/${encodeURIComponent(inspectionId)}`;
export const videoPath = (videoId: string) => `/video/${encodeURIComponent(videoId)}`;

/** Who may enter each protected route (spec §2); routes not listed here need no sign-in. */
export const routeRoles = {
  admin: ['admin'],
  factoryManager: ['factory_manager', 'admin'],
  lcManager: ['lc_manager', 'factory_manager', 'admin'],
  operator: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  audit: ['audit', 'lc_manager', 'factory_manager', 'admin'],
  inspection: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  inspectionReport: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  user: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  video: ['operator', 'lc_manager', 'audit', 'factory_manager', 'admin'],
  floorplans: ['lc_manager', 'audit', 'factory_manager', 'admin'],
  reports: ['operator', 'lc_manager', 'audit', 'factory_manager', 'admin'],
  analysis: ['operator', 'lc_manager', 'factory_manager', 'admin'],
} as const satisfies Record<string, readonly Role[]>;
