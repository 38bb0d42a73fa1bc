// The one database schema (PGlite and PostgreSQL 15+). Migrations in server/drizzle are generated
// from this file with `npm run db:generate`; ids are server-generated 24-hex strings.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { ChecklistSnapshot, MotionSamples, QrScan } from '../schemas/capture.ts';
import type { Role } from '../schemas/common.ts';
import type { FloorplanConfiguration } from '../schemas/floorplan-configs.ts';

const id = () => text('id').primaryKey();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ids = (name: string) => text(name).array().notNull().default(sql`'{}'::text[]`);

export const users = pgTable('users', {
  id: id(),
  name: text('name').notNull(),
  /** Stored lower-case; unique. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  roles: text('roles').array().notNull().$type<Role[]>(),
  /** Bumped on password change, role change and delete: older tokens stop working. */
  tokenVersion: integer('token_version').notNull().default(0),
  lineClearanceIds: ids('line_clearance_ids'),
  assignedOperators: ids('assigned_operators'),
  createdAt: createdAt(),
});

export const lineClearances = pgTable('line_clearances', {
  id: id(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  location: text('location').notNull().default(''),
  status: text('status').notNull().default('active'),
  managerId: text('manager_id'),
  assignedOperators: ids('assigned_operators'),
  createdAt: createdAt(),
});

export const devices = pgTable('devices', {
  id: id(),
  name: text('name').notNull(),
  type: text('type'),
  status: text('status').notNull().default('active'),
  /** The serial from the device's QR label; unique. */
  qrCode: text('qr_code').notNull().unique(),
  registeredBy: text('registered_by'),
  createdAt: createdAt(),
});

export const videos = pgTable(
  'videos',
  {
    id: id(),
    filename: text('filename').notNull().unique(),
    storageKey: text('storage_key').notNull(),
    keyframesKey: text('keyframes_key'),
    /** Storage prefix of the keyframe images; its last segment is the predictions' subfolder. */
    keyframeImagesPrefix: text('keyframe_images_prefix'),
    subfolder: text('subfolder').notNull(),
    userId: text('user_id'),
    deviceId: text('device_id'),
    lineClearanceId: text('line_clearance_id'),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('completed'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    duration: doublePrecision('duration').notNull().default(0),
    /** SHA-256 (hex) of the stored file, checked on arrival; null for files from before hashing. */
    sha256: text('sha256'),
    /** The analysis (pipeline or ingesting system) and version that produced the derived records. */
    analysisVersion: text('analysis_version'),
    /** Why the video is in `error`, or why the analysis produced no path; null otherwise. */
    statusReason: text('status_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('videos_timestamp_idx').on(t.timestamp),
    index('videos_user_idx').on(t.userId, t.timestamp),
    index('videos_line_idx').on(t.lineClearanceId, t.timestamp),
    index('videos_subfolder_idx').on(t.subfolder),
  ],
);

export const predictions = pgTable(
  'predictions',
  {
    id: id(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    subfolder: text('subfolder').notNull(),
    classLabels: jsonb('class_labels').notNull().$type<string[]>(),
    confs: jsonb('confs').notNull().$type<number[]>(),
    boxesNormalized: jsonb('boxes_normalized').notNull().$type<number[][]>(),
  },
  (t) => [index('predictions_video_idx').on(t.videoId)],
);

export const floorplans = pgTable('floorplans', {
  id: id(),
  name: text('name').notNull(),
  /** Generated storage key; its last segment is the served file name. */
  imageKey: text('image_key').notNull().unique(),
  /** One floor plan per line clearance. */
  lineId: text('line_id').notNull().unique(),
  contentType: text('content_type').notNull(),
  createdAt: createdAt(),
});

export const floorplanConfigs = pgTable('floorplan_configs', {
  id: id(),
  /** One saved configuration per line clearance (saving again replaces it; the audit log keeps the old). */
  lineClearanceId: text('line_clearance_id').notNull().unique(),
  floorplanId: text('floorplan_id'),
  name: text('name').notNull(),
  configuration: jsonb('configuration').notNull().$type<FloorplanConfiguration>(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const inspections = pgTable(
  'inspections',
  {
    id: id(),
    lineClearanceId: text('line_clearance_id').notNull(),
    operatorId: text('operator_id').notNull(),
    videoId: text('video_id'),
    startTime: timestamp('start_time', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('pending'),
    operatorNotes: text('operator_notes').notNull().default(''),
    /** Product and batch leaving the line and coming next, as the operator entered them. */
    productLeaving: text('product_leaving'),
    batchLeaving: text('batch_leaving'),
    productComing: text('product_coming'),
    batchComing: text('batch_coming'),
    endTime: timestamp('end_time', { withTimezone: true }),
    /** The line's tags and hot zones when the inspection began (null for older records). */
    checklist: jsonb('checklist').$type<ChecklistSnapshot>(),
    /** The device's own id for the recording, so a retried submit answers the same inspection. */
    clientRef: text('client_ref').unique(),
    reviewerId: text('reviewer_id'),
    reviewNotes: text('review_notes'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    index('inspections_line_idx').on(t.lineClearanceId),
    index('inspections_video_idx').on(t.videoId),
  ],
);

/** What the phone recorded beside the video of one inspection (server/schemas/capture.ts). */
export const captures = pgTable('captures', {
  inspectionId: text('inspection_id')
    .primaryKey()
    .references(() => inspections.id, { onDelete: 'cascade' }),
  scans: jsonb('scans').notNull().$type<QrScan[]>().default(sql`'[]'::jsonb`),
  motion: jsonb('motion').$type<MotionSamples>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A resumable (tus) upload of an inspection video's file. The bytes go to storage under
 * `storageKey` until the SHA-256 the device sent matches; then the file moves to the video's key
 * and the row stays `verified`, so a device that lost the last answer still learns it finished.
 * Rejected and expired uploads are removed (the audit log keeps them).
 */
export const uploads = pgTable(
  'uploads',
  {
    id: id(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** Declared length in bytes (Upload-Length). */
    size: bigint('size', { mode: 'number' }).notNull(),
    /** SHA-256 (hex) the device computed while recording. */
    sha256: text('sha256').notNull(),
    /** 'webm' or 'mp4', checked against the first bytes. */
    container: text('container').notNull(),
    storageKey: text('storage_key').notNull(),
    status: text('status').notNull().default('receiving'),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_video_idx').on(t.videoId), index('uploads_created_idx').on(t.createdAt)],
);

/** Append-only: a trigger (migration 0001) rejects UPDATE, DELETE and TRUNCATE. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    ip: text('ip'),
  },
  (t) => [index('audit_entity_idx').on(t.entity, t.entityId)],
);
