// The e-signature of an inspection's review (21 CFR 11.50, 11.200; docs/signatures.md).
import { type Static, Type } from 'typebox';
import { Id, Matching } from './common.ts';
import type { FloorplanConfig } from './floorplan-configs.ts';

export const SignatureMeaning = Type.Union([Type.Literal('approved'), Type.Literal('rejected')]);
export type SignatureMeaning = Static<typeof SignatureMeaning>;

/** 21 CFR 11.50: the printed name, the date and time (UTC) and the meaning of the signature. */
export const Signature = Type.Object({
  signerId: Id,
  signerName: Type.String(),
  signerEmail: Type.String(),
  meaning: SignatureMeaning,
  /** The meaning in words, as shown in the signing dialog. */
  statement: Type.String(),
  notes: Type.String(),
  signedAt: Type.String({ format: 'date-time' }),
  /** SHA-256 (hex) of what was signed: the record below plus these signature fields. */
  recordHash: Type.String(),
});
export type Signature = Static<typeof Signature>;

/**
 * PATCH /api/inspections/{id}/approve and /reject: the spec's notes plus both components of the
 * signature (21 CFR 11.200(a)(1)), the signer's user ID and password, entered at every signing.
 * Notes are required for a rejection.
 */
export const SignBody = Type.Object({
  notes: Type.Optional(Type.String({ maxLength: 2000 })),
  password: Type.String({ minLength: 1, maxLength: 1000 }),
  userId: Type.String({
    minLength: 1,
    maxLength: 320,
    description:
      "The signer's user ID: the email it signs in with (trimmed, case aside), entered with the password at every signing (21 CFR 11.200(a)(1)). Another user's is refused (403, audited as signature.failed, not counted toward the password lockout); nothing is signed.",
  }),
  /**
   * The `recordHash` of the report the signer reviewed: a record that hashes otherwise now is not
   * signed (409 saying what changed). Optional for scripts; the web app sends it.
   */
  recordHash: Type.Optional(
    Matching('^[0-9a-f]{64}$', 'must be a SHA-256 in hex (64 lower-case hex digits)'),
  ),
});
export type SignBody = Static<typeof SignBody>;

/**
 * What a signed record was drawn on (server/reports/layout.ts): the line's floor-plan
 * configuration as the report used it (the video's own calibration merged in, the image path
 * naming the kept file) and the floor-plan image with its SHA-256. Null parts: the line had none.
 */
export interface SignedLayout {
  config: FloorplanConfig | null;
  floorplan: { imageKey: string; contentType: string; sha256: string } | null;
}

/**
 * Digests of the evidence the report is drawn from besides the record's rows
 * (server/reports/evidence.ts): the path file, the detections, the QR scans and the keyframe images.
 */
export interface SignedEvidence {
  /** SHA-256 of the keyframes (path) file's bytes; null: the video had none. */
  keyframesSha256: string | null;
  /** SHA-256 of canonical JSON of the video's predictions (id, filename, subfolder, labels, confs, boxes). */
  predictionsSha256: string;
  /** SHA-256 of canonical JSON of the capture's QR scans. */
  scansSha256: string;
  /**
   * SHA-256 over the sorted `name sha256` lines of the keyframe images the keyframes file names,
   * hashed at signing (too costly for every read: GET /api/reports/{id}/evidence-check compares
   * it); null: the video had no keyframes file.
   */
  keyframeImagesSha256: string | null;
}

/**
 * The device a record's video was recorded on (its `deviceId`), with its name as the device list
 * had it; null name: the device was deleted before (server/reports/recording-device.ts).
 */
export interface RecordingDevice {
  id: string;
  name: string | null;
}

/**
 * What a signature keeps as it was when signed, because the record shows it and it lives
 * elsewhere: the operator's and the line's names as printed, the layout, the evidence's digests
 * and the recording device (each absent from signatures made before it was kept, which are
 * checked without it).
 */
export interface KeptAtSigning {
  operatorName: string;
  lineName: string;
  layout: SignedLayout;
  evidence?: SignedEvidence;
  /** Null: the video named no device (or there was no video). */
  device?: RecordingDevice | null;
  /** The report rules (REPORT_RULES_VERSION) the signer's flags came from; absent: version 1. */
  rules?: number;
}
