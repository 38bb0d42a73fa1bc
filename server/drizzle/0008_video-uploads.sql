CREATE TABLE "uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"video_id" text NOT NULL,
	"user_id" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"container" text NOT NULL,
	"storage_key" text NOT NULL,
	"status" text DEFAULT 'receiving' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "client_ref" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_video_idx" ON "uploads" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "uploads_created_idx" ON "uploads" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_client_ref_unique" UNIQUE("client_ref");