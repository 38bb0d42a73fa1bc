import { api, type RequestOptions, segment } from '../lib/api-client.ts';

/** Spec §7: a floor-plan image is served by the last path segment of its path. */
export function floorplanImageUrl(imagePath: string): string {
  const file = imagePath.slice(imagePath.lastIndexOf('/') + 1);
  if (!file) throw new Error(`The floor plan's image path '${imagePath}' names no file`);
  return `/api/floorplans/${segment(file)}`;
}

/** The image file's bytes through the API client (bearer token, 401 handling). */
export const getFloorplanImage = (imagePath: string, options?: RequestOptions) =>
  api.bytes(floorplanImageUrl(imagePath), options);
