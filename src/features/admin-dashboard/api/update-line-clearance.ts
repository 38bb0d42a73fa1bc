import { api, segment } from '../../../lib/api-client.ts';
import type { LineClearance, LineClearanceUpdate } from '../../../types/api.ts';

/**
 * Spec §7: PUT sends the whole edited line clearance (the server ignores `_id`), with the version
 * it was opened at (a save over a newer one is refused with 409).
 */
export const updateLineClearance = (id: string, lineClearance: LineClearanceUpdate) =>
  api.put<LineClearance>(`/api/line-clearances/${segment(id)}`, lineClearance);
