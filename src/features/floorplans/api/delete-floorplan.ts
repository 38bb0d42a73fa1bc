import { api, segment } from '../../../lib/api-client.ts';

export const deleteFloorplan = (id: string) =>
  api.delete<unknown>(`/api/floorplans/${segment(id)}`);
