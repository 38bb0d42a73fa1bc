// Where floor-plan images live: in storage under `floorplans/{random id}.{ext}`, served by the
// key's last segment (spec §7: `/api/floorplans/{file}`). One place for both directions.
import { newId } from '../ids.ts';
import type { ImageType } from './image-type.ts';

const PREFIX = 'floorplans/';

/** A new, unguessable storage key for an uploaded image of this type. */
export const newFloorplanImageKey = (type: ImageType) => `${PREFIX}${newId()}.${type.ext}`;

/** The URL the app serves a stored image under. */
export const floorplanImageUrl = (imageKey: string) =>
  `/api/floorplans/${imageKey.slice(imageKey.lastIndexOf('/') + 1)}`;

/** The storage key of a served file name or URL (its last segment). */
export const floorplanImageKey = (fileOrUrl: string) =>
  `${PREFIX}${fileOrUrl.slice(fileOrUrl.lastIndexOf('/') + 1)}`;
