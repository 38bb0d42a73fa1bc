import type { Severity } from './roles.ts';

/** Status tag colours shared by line clearances, devices, videos and inspections. */
const statusSeverities: Record<string, Severity> = {
  active: 'success',
  approved: 'success',
  completed: 'success',
  inactive: 'secondary',
  maintenance: 'warning',
  pending: 'warning',
  processing: 'info',
  offline: 'danger',
  error: 'danger',
  rejected: 'danger',
};

export function statusSeverity(status: string): Severity {
  return statusSeverities[status] ?? 'secondary';
}
