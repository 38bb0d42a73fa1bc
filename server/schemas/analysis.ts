// Shapes of the analysis pipeline (docs/analysis.md): the job rows /analysis lists, what a run
// records, and the ingestion API's body for results made by an external SLAM or detector.
import { type Static, Type } from 'typebox';
import { Id, KeyframeImageName } from './common.ts';
import { FloorplanConfiguration } from './floorplan-configs.ts';

/** The per-video calibration laid over the line's configuration (spec §3, §5). */
export const VideoCalibration = Type.Object({
  slamPoints: FloorplanConfiguration.properties.slamPoints,
  floorplanPoints: FloorplanConfiguration.properties.floorplanPoints,
  forceAffine: Type.Optional(Type.Boolean()),
  yAxisFlip: Type.Optional(Type.Boolean()),
});
export type VideoCalibration = Static<typeof VideoCalibration>;

/** Which detector made a set of predictions. */
export const DetectorInfo = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  version: Type.String({ maxLength: 200 }),
  threshold: Type.Number({ minimum: 0, maximum: 1 }),
});
export type DetectorInfo = Static<typeof DetectorInfo>;

export const PathMethod = Type.Union([
  Type.Literal('motion'),
  Type.Literal('interpolated'),
  Type.Literal('none'),
]);
export type PathMethod = Static<typeof PathMethod>;

/** What a completed run produced, shown on /analysis. */
export const AnalysisSummary = Type.Object({
  duration: Type.Number(),
  container: Type.String(),
  codec: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  keyframeImages: Type.Integer(),
  anchors: Type.Integer(),
  path: PathMethod,
  pathPoints: Type.Integer(),
  /** Why the path is missing or why motion samples were not used; null when all went well. */
  pathNote: Type.Union([Type.String(), Type.Null()]),
  /** Null when the detector made none (detector `none`). */
  predictions: Type.Union([Type.Integer(), Type.Null()]),
  detectorNote: Type.Union([Type.String(), Type.Null()]),
  /** Milliseconds per step. */
  stepMs: Type.Record(Type.String(), Type.Number()),
});
export type AnalysisSummary = Static<typeof AnalysisSummary>;

export const JobState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('failed'),
]);
export type JobState = Static<typeof JobState>;

export const AnalysisStep = Type.Union([
  Type.Literal('probe'),
  Type.Literal('keyframes'),
  Type.Literal('path'),
  Type.Literal('detections'),
  Type.Literal('store'),
]);
export type AnalysisStep = Static<typeof AnalysisStep>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });

/** One row of /analysis: a video, its inspection and its latest job (null if never queued). */
export const AnalysisRow = Type.Object({
  videoId: Id,
  filename: Type.String(),
  recordedAt: DateTime,
  duration: Type.Number(),
  videoStatus: Type.String(),
  statusReason: Nullable(Type.String()),
  /** What made the video's current results (a pipeline run, or an ingesting system); null: none. */
  analysisVersion: Nullable(Type.String()),
  lineClearanceId: Nullable(Id),
  lineName: Nullable(Type.String()),
  operatorId: Nullable(Id),
  operatorName: Nullable(Type.String()),
  inspectionId: Nullable(Id),
  /** A signed inspection was recorded on it: its results are evidence, not to be re-run. */
  signed: Type.Boolean(),
  job: Nullable(
    Type.Object({
      id: Id,
      state: JobState,
      step: Nullable(Type.String()),
      progress: Type.Number(),
      attempts: Type.Integer(),
      maxAttempts: Type.Integer(),
      error: Nullable(Type.String()),
      pipelineVersion: Type.String(),
      detector: Nullable(DetectorInfo),
      summary: Nullable(AnalysisSummary),
      createdAt: DateTime,
      startedAt: Nullable(DateTime),
      finishedAt: Nullable(DateTime),
    }),
  ),
});
export type AnalysisRow = Static<typeof AnalysisRow>;

export const AnalysisQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

/** spec §3 prediction as posted (no id: the server assigns it). */
export const IngestPrediction = Type.Object({
  filename: KeyframeImageName,
  class_labels: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 1000 }),
  confs: Type.Array(Type.Number({ minimum: 0, maximum: 1 }), { maxItems: 1000 }),
  boxes_normalized: Type.Array(
    Type.Array(Type.Number({ minimum: 0, maximum: 1 }), { minItems: 4, maxItems: 4 }),
    { maxItems: 1000 },
  ),
});
export type IngestPrediction = Static<typeof IngestPrediction>;

/** PUT /api/ingest/videos/{id}/analysis: replaces the video's analysis results in one go. */
export const IngestAnalysis = Type.Object({
  /** Names the system and version that made the results (stored as the video's analysisVersion). */
  analysisVersion: Type.String({ minLength: 1, maxLength: 200 }),
  /** The keyframes text (spec §3): index, x, y (metres), time (s), optional image name. */
  keyframes: Type.String({ maxLength: 64 * 1024 * 1024 }),
  calibration: Type.Optional(VideoCalibration),
  detector: Type.Optional(DetectorInfo),
  predictions: Type.Optional(Type.Array(IngestPrediction, { maxItems: 100_000 })),
  /** Keyframe images, base64 PNG, named `{time}.png` like the keyframe routes expect. */
  images: Type.Optional(
    Type.Array(
      Type.Object({
        filename: IngestPrediction.properties.filename,
        data: Type.String({ contentEncoding: 'base64', maxLength: 16 * 1024 * 1024 }),
      }),
      { maxItems: 100_000 },
    ),
  ),
});
export type IngestAnalysis = Static<typeof IngestAnalysis>;

export const ApiKeyCreate = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
export const ApiKey = Type.Object({
  _id: Id,
  name: Type.String(),
  createdBy: Nullable(Type.String()),
  createdAt: DateTime,
  revokedAt: Nullable(DateTime),
  lastUsedAt: Nullable(DateTime),
});
export type ApiKey = Static<typeof ApiKey>;
/** The one answer that shows the secret; it cannot be read again. */
export const ApiKeyCreated = Type.Intersect([ApiKey, Type.Object({ key: Type.String() })]);
export type ApiKeyCreated = Static<typeof ApiKeyCreated>;
