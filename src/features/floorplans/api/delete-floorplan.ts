import { api, segment } from '../../../lib/api-client.ts';

/** Spec §7: deletes a floor plan; the reason goes to the deletion's audit entry. */
export const deleteFloorplan = (id: string, reason: string) =>
  api.delete<unknown>(`/api/floorplans/${segment(id)}`, { body: { reason } });
