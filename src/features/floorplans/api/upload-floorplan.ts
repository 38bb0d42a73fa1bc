import { api, type UploadProgress } from '../../../lib/api-client.ts';
import type { Floorplan } from '../../../types/api.ts';

/** Spec §7: every floor plan is named 'Floorplan'; the line clearance is the form field lineID. */
export const floorplanName = 'Floorplan';

/** Spec §7: POST /api/floorplans as a multipart form (name, image, lineID), with progress. */
export function uploadFloorplan(
  image: File,
  lineId: string,
  onProgress: (progress: UploadProgress) => void,
): Promise<Floorplan> {
  const form = new FormData();
  form.append('name', floorplanName);
  form.append('lineID', lineId);
  form.append('image', image, image.name);
  return api.upload<Floorplan>('/api/floorplans', form, { onProgress });
}
