import { type Static, Type } from 'typebox';
import { Id } from './common.ts';

/** One detection record for a keyframe image; boxes are [x1, y1, x2, y2] image fractions. */
export const Prediction = Type.Object({
  _id: Id,
  filename: Type.String(),
  subfolder: Type.String(),
  class_labels: Type.Array(Type.String()),
  confs: Type.Array(Type.Number({ minimum: 0, maximum: 1 })),
  boxes_normalized: Type.Array(Type.Array(Type.Number(), { minItems: 4, maxItems: 4 })),
});
export type Prediction = Static<typeof Prediction>;
