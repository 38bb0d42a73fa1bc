CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"old_value" jsonb,
	"new_value" jsonb,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text,
	"status" text DEFAULT 'active' NOT NULL,
	"qr_code" text NOT NULL,
	"registered_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_qr_code_unique" UNIQUE("qr_code")
);
--> statement-breakpoint
CREATE TABLE "floorplan_configs" (
	"id" text PRIMARY KEY NOT NULL,
	"line_clearance_id" text NOT NULL,
	"floorplan_id" text,
	"name" text NOT NULL,
	"configuration" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "floorplan_configs_line_clearance_id_unique" UNIQUE("line_clearance_id")
);
--> statement-breakpoint
CREATE TABLE "floorplans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image_key" text NOT NULL,
	"line_id" text NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "floorplans_image_key_unique" UNIQUE("image_key"),
	CONSTRAINT "floorplans_line_id_unique" UNIQUE("line_id")
);
--> statement-breakpoint
CREATE TABLE "inspections" (
	"id" text PRIMARY KEY NOT NULL,
	"line_clearance_id" text NOT NULL,
	"operator_id" text NOT NULL,
	"video_id" text,
	"start_time" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"operator_notes" text DEFAULT '' NOT NULL,
	"reviewer_id" text,
	"review_notes" text,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "line_clearances" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"manager_id" text,
	"assigned_operators" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "predictions" (
	"id" text PRIMARY KEY NOT NULL,
	"video_id" text NOT NULL,
	"filename" text NOT NULL,
	"subfolder" text NOT NULL,
	"class_labels" jsonb NOT NULL,
	"confs" jsonb NOT NULL,
	"boxes_normalized" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"roles" text[] NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"line_clearance_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"assigned_operators" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" text PRIMARY KEY NOT NULL,
	"filename" text NOT NULL,
	"storage_key" text NOT NULL,
	"keyframes_key" text,
	"keyframe_images_prefix" text,
	"subfolder" text NOT NULL,
	"user_id" text,
	"device_id" text,
	"line_clearance_id" text,
	"timestamp" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"duration" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "videos_filename_unique" UNIQUE("filename")
);
--> statement-breakpoint
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "inspections_line_idx" ON "inspections" USING btree ("line_clearance_id");--> statement-breakpoint
CREATE INDEX "predictions_video_idx" ON "predictions" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "videos_timestamp_idx" ON "videos" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "videos_user_idx" ON "videos" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "videos_line_idx" ON "videos" USING btree ("line_clearance_id","timestamp");--> statement-breakpoint
CREATE INDEX "videos_subfolder_idx" ON "videos" USING btree ("subfolder");