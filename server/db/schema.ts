// The one database schema (PGlite and PostgreSQL 15+). Migrations in server/drizzle are generated
// from this file with `npm run db:generate`; ids are server-generated 24-hex strings.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AnalysisSummary, DetectorInfo, VideoCalibration } from '../schemas/analysis.ts';
import type { ChecklistSnapshot, MotionSamples, QrScan } from '../schemas/capture.ts';
import type { Role } from '../schemas/common.ts';
import type { FloorplanConfiguration } from '../schemas/floorplan-configs.ts';
import type { ReplacedDetection } from '../schemas/reports.ts';
import type { KeptAtSigning } from '../schemas/signatures.ts';

const id = () => text('id').primaryKey();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ids = (name: string) => text(name).array().notNull().default(sql`'{}'::text[]`);
/**
 * The record's version as its edit forms see it: a trigger (migration 0016) adds one whenever an
 * update changes a field the record's answer shows, and a PUT naming an older one is refused
 * (services/record-version.ts, docs/api-contract.md "Versions").
 */
const version = () => integer('version').notNull().default(1);

export const users = pgTable('users', {
  id: id(),
  name: text('name').notNull(),
  /** Stored lower-case; unique. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  roles: text('roles').array().notNull().$type<Role[]>(),
  /** Bumped on password change, role change and delete: older tokens stop working. */
  tokenVersion: integer('token_version').notNull().default(0),
  /**
   * Who chose the current password when it was not the user (an account created or a password
   * reset by a manager; the user's own id for the first admin's, set through the deployment);
   * null once the user sets their own. Until then the user may only set it (http/auth-hook.ts):
   * a signature needs a password only its signer knows (docs/signatures.md).
   */
  passwordSetBy: text('password_set_by'),
  /**
   * When the current password was set (created, changed or reset): past PASSWORD_MAX_AGE_DAYS the
   * sign-in asks for a new one (routes/auth.ts, 21 CFR 11.300(b)).
   */
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true })
    .notNull()
    .defaultNow(),
  /** 'active' or 'deactivated' (kept for its records; the login refuses it). */
  status: text('status').notNull().default('active'),
  lineClearanceIds: ids('line_clearance_ids'),
  assignedOperators: ids('assigned_operators'),
  version: version(),
  createdAt: createdAt(),
});

/**
 * Every email address a user has held, for good (21 CFR 11.100(a): a signature is never reassigned
 * to anyone else). One owner per address: no other user is created with it or given it later, its
 * owner may take it back. Kept when the user is deleted (the trail still names the address). A
 * trigger on `users` (migration 0015) writes it in the statement that sets an email; the users
 * routes check it first to name the owner (services/users.ts `emailRefusal`).
 */
export const userEmails = pgTable(
  'user_emails',
  {
    /** Lower-case, as `users.email`. */
    email: text('email').primaryKey(),
    userId: text('user_id').notNull(),
  },
  (t) => [check('user_emails_lower_case', sql`${t.email} = lower(${t.email})`)],
);

export const lineClearances = pgTable('line_clearances', {
  id: id(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  location: text('location').notNull().default(''),
  status: text('status').notNull().default('active'),
  managerId: text('manager_id'),
  assignedOperators: ids('assigned_operators'),
  version: version(),
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
  version: version(),
  createdAt: createdAt(),
});

/**
 * Who registered a device's label: every user who scanned it, so a shared tablet is in each of its
 * users' lists (`devices.registeredBy` is the first of them).
 */
export const deviceHolders = pgTable(
  'device_holders',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.userId] }),
    index('device_holders_user_idx').on(t.userId),
  ],
);

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
    /** The path's own calibration (slamPoints/floorplanPoints…), laid over the line's configuration. */
    calibration: jsonb('calibration').$type<VideoCalibration>(),
    /**
     * The object detector the current results came from (name 'none': no detector ran, so no
     * detection was looked for); null before any results, or when an ingest named none.
     */
    detector: jsonb('detector').$type<DetectorInfo>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('videos_timestamp_idx').on(t.timestamp),
    index('videos_user_idx').on(t.userId, t.timestamp),
    index('videos_line_idx').on(t.lineClearanceId, t.timestamp),
    index('videos_subfolder_idx').on(t.subfolder),
    // A file stored again as another video's is refused (services/capture.ts sameFileAs).
    index('videos_sha256_idx').on(t.sha256),
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
    /** Which detector (name, version, threshold) made it; null for records from before. */
    detector: jsonb('detector').$type<DetectorInfo>(),
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
  version: version(),
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
    /**
     * When the server received the submit, on the database's clock: the start and end times are
     * the device's, and a late arrival is a report flag. Null only for records from before it was
     * kept whose submit the trail does not show (migration 0019); no update changes it (trigger).
     */
    receivedAt: timestamp('received_at', { withTimezone: true }),
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
 * whenever the report service builds a report (server/reports/report.ts). A missing row means the
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
    /** A signed record whose hash, when the report was last built, no longer matched its signature. */
    changedAfterSigning: boolean('changed_after_signing').notNull().default(false),
    /**
     * The last audit entry committed before the record was read: the summary is current through
     * it, and an entry of the inspection or its video after it means a change it has not counted.
     */
    builtThrough: bigint('built_through', { mode: 'number' }).notNull().default(0),
    /** REPORT_RULES_VERSION of the code that built it: rules changed since, it is built again. */
    rules: integer('rules').notNull().default(0),
  },
  (t) => [index('report_summaries_flags_idx').on(t.flags)],
);

/**
 * The electronic signature of an inspection's review (21 CFR 11.50): one per inspection (a signed
 * record cannot be signed again), with the signer's printed name and a hash of what was signed.
 */
export const signatures = pgTable(
  'signatures',
  {
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
    /** SHA-256 (hex) of the canonical record that was signed (server/reports/record.ts). */
    recordHash: text('record_hash').notNull(),
    /**
     * The operator's and line's names and the floor-plan layout as the record showed them when
     * signed (server/reports/layout.ts); null for signatures made before they were kept.
     */
    kept: jsonb('kept').$type<KeptAtSigning>(),
  },
  // A kept floor-plan image is served and protected while a signature names it.
  (t) => [
    index('signatures_kept_image_idx').on(sql`(${t.kept}->'layout'->'floorplan'->>'imageKey')`),
  ],
);

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
    /**
     * The detection as it was when a new analysis replaced it without it (the decision stays,
     * shown and signed with it); null while the decision is on a current detection.
     */
    replaced: jsonb('replaced').$type<ReplacedDetection>(),
  },
  (t) => [primaryKey({ columns: [t.inspectionId, t.predictionId] })],
);

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

/**
 * Append-only: a trigger (migration 0001) rejects UPDATE, DELETE and TRUNCATE. Each row carries the
 * hash of the row before it (a hash chain), set by the insert trigger of migration 0007.
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

/**
 * Hashes of a user's former passwords, as they were stored (scrypt, with their own cost), newest
 * last: a new password of its own may not be one of them (PASSWORD_HISTORY,
 * server/auth/password-history.ts). Never the passwords themselves.
 */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    /** When another password replaced it. */
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_history_user_idx').on(t.userId, t.id)],
);

/** Failed password checks of one account (server/auth/credentials.ts); one row per account. */
export const accountLockouts = pgTable('account_lockouts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Failures since `windowStartedAt`. */
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** Locks since the last successful sign-in or unlock: each lock lasts twice the one before. */
  locks: integer('locks').notNull().default(0),
});

/**
 * Failed password checks from a known browser's entry (server/auth/known-browser.ts), counted
 * instead of its account's. `spentAt`: the entry reached the limit and is known no more.
 */
export const knownBrowserFailures = pgTable('known_browser_failures', {
  entryId: text('entry_id').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  spentAt: timestamp('spent_at', { withTimezone: true }),
});

/** Failed password checks from one client address in the current window. */
export const addressFailures = pgTable('address_failures', {
  address: text('address').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
});

/** Sessions ended by logout; kept until their tokens would have expired anyway. */
export const revokedSessions = pgTable('revoked_sessions', {
  sessionId: text('session_id').primaryKey(),
  userId: text('user_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Analysis jobs (docs/analysis.md): a queue in the database, claimed with FOR UPDATE SKIP LOCKED and
 * held by a lease, so a crashed process's job is taken again and two processes never run one job.
 */
export const analysisJobs = pgTable(
  'analysis_jobs',
  {
    id: id(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    /** queued → running → completed | failed (a retry goes back to queued). */
    state: text('state').notNull().default('queued'),
    step: text('step'),
    progress: real('progress').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    /** The process holding the job, and until when its lease runs (renewed while it works). */
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    requestedBy: text('requested_by'),
    /** The failure a person can act on (last attempt's, while retries remain). */
    error: text('error'),
    pipelineVersion: text('pipeline_version').notNull(),
    detector: jsonb('detector').$type<DetectorInfo>(),
    summary: jsonb('summary').$type<AnalysisSummary>(),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('analysis_jobs_video_idx').on(t.videoId, t.createdAt),
    index('analysis_jobs_runnable_idx').on(t.state, t.runAfter),
    // At most one open job per video: enqueueing it again while one waits or runs is a no-op.
    uniqueIndex('analysis_jobs_open_idx').on(t.videoId).where(sql`state in ('queued', 'running')`),
  ],
);

/**
 * Service accounts: an API key acts with the 'service' role only (an external SLAM or detector
 * posting analysis results). Only a hash of the secret is kept; revoking is final.
 */
export const apiKeys = pgTable('api_keys', {
  id: id(),
  name: text('name').notNull(),
  /** SHA-256 (hex) of the secret part of the key. */
  secretHash: text('secret_hash').notNull(),
  createdBy: text('created_by'),
  createdAt: createdAt(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});
