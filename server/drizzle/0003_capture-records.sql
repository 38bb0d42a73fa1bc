CREATE TABLE "captures" (
	"inspection_id" text PRIMARY KEY NOT NULL,
	"scans" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"motion" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "product_leaving" text;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "batch_leaving" text;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "product_coming" text;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "batch_coming" text;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "end_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "checklist" jsonb;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "analysis_version" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "captures" ADD CONSTRAINT "captures_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE cascade ON UPDATE no action;