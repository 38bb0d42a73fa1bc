import { api } from '../../../lib/api-client.ts';
import type { Video } from '../../../types/api.ts';

export interface VideoFilters {
  /** Start of the first day, end of the last (spec §9: 23:59:59.999); null means no range. */
  range: { start: Date; end: Date } | null;
  userIds: readonly string[];
  lineIds: readonly string[];
}

/** Spec §7: the query GET /api/videos takes, every parameter repeated per value. */
export function videoQuery(filters: VideoFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.range) {
    query.append('startDate', filters.range.start.toISOString());
    query.append('endDate', filters.range.end.toISOString());
  }
  for (const id of filters.userIds) query.append('userIds', id);
  for (const id of filters.lineIds) query.append('lineIDs', id);
  return query;
}

export function getVideos(filters: VideoFilters): Promise<Video[]> {
  const query = videoQuery(filters).toString();
  return api.get<Video[]>(query ? `/api/videos?${query}` : '/api/videos');
}
