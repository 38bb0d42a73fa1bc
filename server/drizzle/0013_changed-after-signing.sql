-- Whether a signed record's hash still matched its signature when its report was last built (docs/reports.md).
ALTER TABLE "report_summaries" ADD COLUMN "changed_after_signing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Signed records' summaries are built again at the next start (summarizeMissing), which checks them.
DELETE FROM "report_summaries" WHERE "inspection_id" IN (SELECT "id" FROM "inspections" WHERE "status" <> 'pending');
