-- Which trail entries each report summary counts (server/reports/report.ts, summarizeMissing): the
-- build time it kept could be later than a change it never read (a disposition saved during the
-- start's rebuild of the same record), so that change was never rebuilt. A summary now keeps the
-- last audit entry committed before its record was read; ids are drawn in commit order (0007).
ALTER TABLE "report_summaries" ADD COLUMN "built_through" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Summaries built before: current through the trail's last entry, unless an entry of their
-- inspection or video is dated after their build (kept at 0, so the next start builds them again).
UPDATE "report_summaries" s SET "built_through" = (SELECT coalesce(max("id"), 0) FROM "audit_log")
FROM "inspections" i
WHERE i."id" = s."inspection_id"
  AND NOT EXISTS (
    SELECT 1 FROM "audit_log" a
    WHERE a."at" > s."built_at"
      AND ((a."entity" = 'inspection' AND a."entity_id" = i."id")
        OR (a."entity" = 'video' AND a."entity_id" = i."video_id")));
--> statement-breakpoint
ALTER TABLE "report_summaries" DROP COLUMN "built_at";
