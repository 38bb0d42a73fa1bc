-- A decision on a detection that a new analysis replaced keeps that detection as it was
-- (server/analysis/outputs.ts; docs/reports.md "Decisions on replaced detections").
ALTER TABLE "detection_dispositions" ADD COLUMN "replaced" jsonb;