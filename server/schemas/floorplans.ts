import { type Static, Type } from 'typebox';
import { Id } from './common.ts';

/** `imagePath` is `/api/floorplans/{file}`; the image is served by its last path segment. */
export const Floorplan = Type.Object({
  _id: Id,
  name: Type.String(),
  imagePath: Type.String(),
  lineID: Id,
  createdAt: Type.String({ format: 'date-time' }),
});
export type Floorplan = Static<typeof Floorplan>;
