-- The detector a video's results came from, so a report can tell 'no detector ran' from 'nothing
-- found' (docs/reports.md, flags). Existing videos take it from their detections, else from the
-- analysis run that made their results; others stay null (not known).
ALTER TABLE "videos" ADD COLUMN "detector" jsonb;--> statement-breakpoint
UPDATE "videos" SET "detector" = coalesce(
  (SELECT p."detector" FROM "predictions" p
    WHERE p."video_id" = "videos"."id" AND p."detector" IS NOT NULL LIMIT 1),
  (SELECT j."detector" FROM "analysis_jobs" j
    WHERE j."video_id" = "videos"."id" AND j."state" = 'completed'
      AND j."pipeline_version" = "videos"."analysis_version"
    ORDER BY j."finished_at" DESC NULLS LAST LIMIT 1)
);
