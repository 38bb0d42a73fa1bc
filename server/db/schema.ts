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
  primaryKey,
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
    reviewerId: text('reviewer_id'),
    reviewNotes: text('review_notes'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    index('inspections_line_idx').on(t.lineClearanceId),
    index('inspections_video_idx').on(t.videoId),
    // /reports pages by start time, newest first, within the caller's scope and filters.
    index('inspections_start_idx').on(t.startTime, t.id),
    index('inspections_operator_start_idx').on(t.operatorId, t.startTime),
    index('inspections_line_start_idx').on(t.lineClearanceId, t.startTime),
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
 * What /reports filters and shows without rebuilding each report: the report's flag counts, written
 * whenever the report service builds a report (server/services/report.ts). A missing row means the
 * report has not been built yet.
 */
export const reportSummaries = pgTable(
  'report_summaries',
  {
    inspectionId: text('inspection_id')
      .primaryKey()
      .references(() => inspections.id, { onDelete: 'cascade' }),
    flags: integer('flags').notNull(),
    /** Flags of critical or high severity. */
    criticalFlags: integer('critical_flags').notNull(),
    tagsScanned: integer('tags_scanned').notNull(),
    tagsTotal: integer('tags_total').notNull(),
    zonesVisited: integer('zones_visited').notNull(),
    zonesTotal: integer('zones_total').notNull(),
    detections: integer('detections').notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('report_summaries_flags_idx').on(t.flags)],
);

/**
 * The electronic signature of an inspection's review (21 CFR 11.50): one per inspection (a signed
 * record cannot be signed again), with the signer's printed name and a hash of what was signed.
 */
export const signatures = pgTable('signatures', {
  inspectionId: text('inspection_id')
    .primaryKey()
    .references(() => inspections.id, { onDelete: 'restrict' }),
  signerId: text('signer_id').notNull(),
  /** The name as printed when signing; a later rename of the user does not change it. */
  signerName: text('signer_name').notNull(),
  signerEmail: text('signer_email').notNull(),
  /** 'approved' or 'rejected'. */
  meaning: text('meaning').notNull(),
  /** The meaning in words, as the signer saw it in the signing dialog. */
  statement: text('statement').notNull(),
  notes: text('notes').notNull().default(''),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
  /** SHA-256 (hex) of the canonical record that was signed (server/services/signing.ts). */
  recordHash: text('record_hash').notNull(),
});

/** A reviewer's decision on one detection (prediction) of an inspection's video. */
export const dispositions = pgTable(
  'detection_dispositions',
  {
    inspectionId: text('inspection_id')
      .notNull()
      .references(() => inspections.id, { onDelete: 'restrict' }),
    predictionId: text('prediction_id').notNull(),
    /** 'confirmed' (a real finding) or 'dismissed' (a false positive). */
    disposition: text('disposition').notNull(),
    reason: text('reason').notNull().default(''),
    reviewerId: text('reviewer_id').notNull(),
    reviewerName: text('reviewer_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.inspectionId, t.predictionId] })],
);

/**
 * Append-only: a trigger (migration 0001) rejects UPDATE, DELETE and TRUNCATE. Each row carries the
 * hash of the row before it (a hash chain), set by the insert trigger of migration 0005.
 */
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
    /** The previous entry's `hash` (64 zeros for the first entry). */
    prevHash: text('prev_hash'),
    /** SHA-256 (hex) of prevHash followed by this entry's canonical text (docs/audit-trail.md). */
    hash: text('hash'),
  },
  (t) => [
    index('audit_entity_idx').on(t.entity, t.entityId),
    index('audit_actor_idx').on(t.actorEmail, t.id),
    index('audit_action_idx').on(t.action, t.id),
  ],
);
