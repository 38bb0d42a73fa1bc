CREATE TABLE "analysis_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"video_id" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"step" text,
	"progress" real DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"requested_by" text,
	"error" text,
	"pipeline_version" text NOT NULL,
	"detector" jsonb,
	"summary" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "predictions" ADD COLUMN "detector" jsonb;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "calibration" jsonb;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD CONSTRAINT "analysis_jobs_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_jobs_video_idx" ON "analysis_jobs" USING btree ("video_id","created_at");--> statement-breakpoint
CREATE INDEX "analysis_jobs_runnable_idx" ON "analysis_jobs" USING btree ("state","run_after");--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_jobs_open_idx" ON "analysis_jobs" USING btree ("video_id") WHERE state in ('queued', 'running');