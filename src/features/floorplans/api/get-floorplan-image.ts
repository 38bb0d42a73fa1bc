import { api, segment } from '../../../lib/api-client.ts';

/** Spec §7: the image is served by the last path segment of the floor plan's imagePath. */
export function floorplanImageUrl(imagePath: string): string {
  const file = imagePath.slice(imagePath.lastIndexOf('/') + 1);
  if (!file) throw new Error(`The floor plan's imagePath '${imagePath}' names no file`);
  return `/api/floorplans/${segment(file)}`;
}

/** The image bytes through the API client (bearer token, 401 handling), for the calibrator. */
export const getFloorplanImage = async (imagePath: string) =>
  new Blob([await api.bytes(floorplanImageUrl(imagePath))]);
