// The resumable video upload (tus 1.0.0 under /api/uploads): the metadata a client sends with
// `Upload-Metadata` when it creates an upload. Every value is checked; none reaches a file path.
import { type Static, Type } from 'typebox';
import { Id, Matching } from './common.ts';

export const UploadMetadata = Type.Object({
  /** The video created with the inspection (POST /api/inspections). */
  videoId: Id,
  /** SHA-256 of the whole file as the device computed it, 64 lower-case hex characters. */
  sha256: Matching('^[0-9a-f]{64}$', 'must be a SHA-256 in hex (64 lower-case hex digits)'),
  /** The recording's MIME type, e.g. `video/webm;codecs=vp9`; its container must be WebM or MP4. */
  filetype: Type.String({ maxLength: 200 }),
  /** The device's own name for the file; only recorded, never used as a path. */
  filename: Type.Optional(Type.String({ maxLength: 200 })),
});
export type UploadMetadata = Static<typeof UploadMetadata>;

/** Status of a refused upload whose bytes do not hash to the declared SHA-256 (tus checksum). */
export const CHECKSUM_MISMATCH = 460;
