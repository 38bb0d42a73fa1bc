CREATE TABLE "detection_dispositions" (
	"inspection_id" text NOT NULL,
	"prediction_id" text NOT NULL,
	"disposition" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"reviewer_id" text NOT NULL,
	"reviewer_name" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "detection_dispositions_inspection_id_prediction_id_pk" PRIMARY KEY("inspection_id","prediction_id")
);
--> statement-breakpoint
CREATE TABLE "report_summaries" (
	"inspection_id" text PRIMARY KEY NOT NULL,
	"flags" integer NOT NULL,
	"critical_flags" integer NOT NULL,
	"tags_scanned" integer NOT NULL,
	"tags_total" integer NOT NULL,
	"zones_visited" integer NOT NULL,
	"zones_total" integer NOT NULL,
	"detections" integer NOT NULL,
	"built_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signatures" (
	"inspection_id" text PRIMARY KEY NOT NULL,
	"signer_id" text NOT NULL,
	"signer_name" text NOT NULL,
	"signer_email" text NOT NULL,
	"meaning" text NOT NULL,
	"statement" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"record_hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "detection_dispositions" ADD CONSTRAINT "detection_dispositions_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_summaries" ADD CONSTRAINT "report_summaries_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_summaries_flags_idx" ON "report_summaries" USING btree ("flags");--> statement-breakpoint
CREATE INDEX "audit_actor_idx" ON "audit_log" USING btree ("actor_email","id");--> statement-breakpoint
CREATE INDEX "audit_action_idx" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "inspections_start_idx" ON "inspections" USING btree ("start_time","id");--> statement-breakpoint
CREATE INDEX "inspections_operator_start_idx" ON "inspections" USING btree ("operator_id","start_time");--> statement-breakpoint
CREATE INDEX "inspections_line_start_idx" ON "inspections" USING btree ("line_clearance_id","start_time");