// What the end-to-end tests expect, written from the spec (shared/spec.md §2, §4) rather than read
// from the app's own config, so a wrong route rule in the app fails here.

export type Role = 'admin' | 'factory_manager' | 'lc_manager' | 'audit' | 'operator';

export const demoPassword = 'demo-password';

export interface DemoAccount {
  email: string;
  role: Role;
  name: string;
  /** Spec §2: where a signed-in user lands, by primary role. */
  dashboard: string;
}

/** The demo accounts of the brief, one per role (server/demo/dataset.json). */
export const demoAccounts: readonly DemoAccount[] = [
  { email: 'admin@example.com', role: 'admin', name: 'Adriana Novak', dashboard: '/admin' },
  {
    email: 'factory@example.com',
    role: 'factory_manager',
    name: 'Martin Keller',
    dashboard: '/factory-manager',
  },
  {
    email: 'lcmanager@example.com',
    role: 'lc_manager',
    name: 'Sofia Lindqvist',
    dashboard: '/lc-manager',
  },
  { email: 'audit@example.com', role: 'audit', name: 'Helen Park', dashboard: '/audit' },
  { email: 'operator@example.com', role: 'operator', name: 'Tomás Rivera', dashboard: '/operator' },
];

export function demoAccount(role: Role): DemoAccount {
  const account = demoAccounts.find((candidate) => candidate.role === role);
  if (!account) throw new Error(`no demo account with the role ${role}`);
  return account;
}

/** Who may enter a route: nobody needs to sign in ('public') or one of these roles. */
export type Access = 'public' | readonly Role[];

export interface RouteRule {
  /** The path as the spec writes it. */
  pattern: string;
  /** A concrete URL to visit; `{...}` parameters are filled in by `routeUrl`. */
  url: string;
  access: Access;
  /** Where an allowed visit ends up when it is not the URL itself (/videos → /video). */
  redirectsTo?: string;
}

/** Spec §2 route table, one row per path (/video/{videoId} and the /videos alias each their own). */
export const routeTable: readonly RouteRule[] = [
  { pattern: '/', url: '/', access: 'public' },
  { pattern: '/login', url: '/login', access: 'public' },
  { pattern: '/admin', url: '/admin', access: ['admin'] },
  { pattern: '/factory-manager', url: '/factory-manager', access: ['factory_manager', 'admin'] },
  {
    pattern: '/lc-manager',
    url: '/lc-manager',
    access: ['lc_manager', 'factory_manager', 'admin'],
  },
  {
    pattern: '/operator',
    url: '/operator',
    access: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  },
  { pattern: '/audit', url: '/audit', access: ['audit', 'lc_manager', 'factory_manager', 'admin'] },
  {
    pattern: '/inspection/{areaId}',
    url: '/inspection/{areaId}',
    access: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  },
  {
    pattern: '/inspection-report/{inspectionId}',
    url: '/inspection-report/{inspectionId}',
    access: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  },
  {
    pattern: '/user',
    url: '/user',
    access: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  },
  {
    pattern: '/video',
    url: '/video',
    access: ['operator', 'lc_manager', 'audit', 'factory_manager', 'admin'],
  },
  {
    pattern: '/video/{videoId}',
    url: '/video/{videoId}',
    access: ['operator', 'lc_manager', 'audit', 'factory_manager', 'admin'],
  },
  {
    pattern: '/videos',
    url: '/videos',
    access: ['operator', 'lc_manager', 'audit', 'factory_manager', 'admin'],
    redirectsTo: '/video',
  },
  {
    pattern: '/floorplans',
    url: '/floorplans',
    access: ['lc_manager', 'audit', 'factory_manager', 'admin'],
  },
  {
    pattern: '/reports',
    url: '/reports',
    access: ['operator', 'lc_manager', 'audit', 'factory_manager', 'admin'],
  },
  {
    pattern: '/analysis',
    url: '/analysis',
    access: ['operator', 'lc_manager', 'factory_manager', 'admin'],
  },
];

/** Real ids for the route parameters, read from the demo data of the running server. */
export type RouteParams = Record<'areaId' | 'inspectionId' | 'videoId', string>;

export function routeUrl(rule: RouteRule, params: RouteParams): string {
  return rule.url.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name as keyof RouteParams];
    if (value === undefined) throw new Error(`no value for the route parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * Where a visit to `rule` should end, for a signed-out visitor (role null) or a user of one role
 * (spec §2: no login → /login, which returns there after sign-in; lacking the role → /; a
 * signed-in user opening / → dashboard).
 */
export function expectedLanding(rule: RouteRule, role: Role | null, url: string): string {
  if (rule.pattern === '/' && role !== null) return demoAccount(role).dashboard;
  if (rule.access === 'public') return url;
  if (role === null) return `/login?${new URLSearchParams({ next: rule.redirectsTo ?? url })}`;
  if (!rule.access.includes(role)) return '/';
  return rule.redirectsTo ?? url;
}
