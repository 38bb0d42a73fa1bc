import { api } from '../../../lib/api-client.ts';
import { queryString } from '../../../lib/query-string.ts';
import type { AuditEntry, AuditFacets, AuditQuery, TrailVerification } from '../../../types/api.ts';

/** GET /api/audit-log: newest first, filtered, paged by `before`. */
export const getAuditTrail = (query: AuditQuery) =>
  api.get<AuditEntry[]>(`/api/audit-log?${queryString(query)}`);

/** The CSV export of the same filters: a plain link (the media cookie authorises it). */
export const auditCsvUrl = (query: AuditQuery) => {
  const { before: _before, limit: _limit, ...filters } = query;
  return `/api/audit-log.csv?${queryString(filters)}`;
};

/** GET /api/audit-log/facets: the actions and object types to filter by. */
export const getAuditFacets = () => api.get<AuditFacets>('/api/audit-log/facets');

/** GET /api/audit-log/verify: the hash chain checked from the first entry to the last. */
export const verifyTrail = () => api.get<TrailVerification>('/api/audit-log/verify');
