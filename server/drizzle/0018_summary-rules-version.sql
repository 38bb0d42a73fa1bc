-- Which report rules built each summary (REPORT_RULES_VERSION, server/reports/report.ts): the rows built
-- before it read 0, so the next start (summarizeMissing) builds them all again under the current rules.
ALTER TABLE "report_summaries" ADD COLUMN "rules" integer DEFAULT 0 NOT NULL;
