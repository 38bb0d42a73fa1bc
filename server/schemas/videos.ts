import { type Static, Type } from 'typebox';
import { Id } from './common.ts';

export const VideoStatus = Type.Union([
  Type.Literal('completed'),
  Type.Literal('processing'),
  Type.Literal('pending'),
  Type.Literal('error'),
]);
export type VideoStatus = Static<typeof VideoStatus>;

export const RelatedData = Type.Object({
  predictions: Type.Integer(),
  reports: Type.Integer(),
  floorplanConfigs: Type.Integer(),
  floorplans: Type.Integer(),
});
export type RelatedData = Static<typeof RelatedData>;

/**
 * A recorded inspection video. `id` equals `_id`. `path.video` is the API path of the file
 * (`/api/videos/{filename}`), `path.keyframesData` the keyframes text (`/api/keyframes/{id}.txt`).
 * `size` and `fileSize` are the same byte count; `duration` (seconds) is also in `metadata`.
 */
export const Video = Type.Object({
  _id: Id,
  id: Id,
  filename: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  userId: Type.Union([Id, Type.Null()]),
  operatorId: Type.Union([Id, Type.Null()]),
  deviceId: Type.Union([Id, Type.Null()]),
  lineClearanceId: Type.Union([Id, Type.Null()]),
  path: Type.Object({ video: Type.String(), keyframesData: Type.String() }),
  status: VideoStatus,
  size: Type.Integer(),
  fileSize: Type.Integer(),
  duration: Type.Number(),
  metadata: Type.Object({
    device: Type.Union([Type.String(), Type.Null()]),
    location: Type.Union([Type.String(), Type.Null()]),
    duration: Type.Number(),
  }),
  relatedData: RelatedData,
});
export type Video = Static<typeof Video>;

/**
 * GET /api/admin/videos: a video and whether it is evidence of a signed (approved or rejected)
 * inspection, which DELETE /api/admin/videos/{id} refuses (409; docs/signatures.md).
 */
export const AdminVideo = Type.Object({
  ...Video.properties,
  signedEvidence: Type.Boolean({
    description:
      'True when an approved or rejected inspection was recorded on the video: its evidence is ' +
      'kept as signed, so deleting it answers 409.',
  }),
});
export type AdminVideo = Static<typeof AdminVideo>;

const IdList = Type.Array(Id, { maxItems: 500 });

/** GET /api/videos filters; every parameter may repeat (a single value is read as a list). */
export const VideoQuery = Type.Object({
  startDate: Type.Optional(Type.Array(Type.String({ format: 'date-time' }), { maxItems: 10 })),
  endDate: Type.Optional(Type.Array(Type.String({ format: 'date-time' }), { maxItems: 10 })),
  userIds: Type.Optional(IdList),
  lineIDs: Type.Optional(IdList),
});
export type VideoQuery = Static<typeof VideoQuery>;

/**
 * DELETE /api/admin/videos/{id}: why. The spec's call has no payload, so the body is optional; the
 * reason is required (at least three different words) when an inspection names the video, since
 * deleting it removes original GMP data from that record. It goes to the audit entry's `reason`.
 */
export const VideoDeleteBody = Type.Object({
  reason: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'Why the video is deleted; required for the video of an inspection (at least three ' +
        'different words). Stored as the reason of the audit entry.',
    }),
  ),
});
export type VideoDeleteBody = Static<typeof VideoDeleteBody>;

/** DELETE /api/admin/videos/{id}: what was removed. `minio` reports the stored files. */
export const VideoDeleteResponse = Type.Object({
  deleted: Type.Object({
    video: Type.Integer(),
    predictions: Type.Integer(),
    reports: Type.Integer(),
    floorplanConfigs: Type.Integer(),
    floorplans: Type.Integer(),
    minio: Type.Object({
      video: Type.Boolean(),
      keyframesText: Type.Boolean(),
      keyframesImages: Type.Integer(),
      results: Type.Boolean(),
    }),
  }),
});
export type VideoDeleteResponse = Static<typeof VideoDeleteResponse>;
