-- Every user who registered a device's label, so a shared device is in each user's list (docs/capture.md).
CREATE TABLE "device_holders" (
	"device_id" text NOT NULL,
	"user_id" text NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_holders_device_id_user_id_pk" PRIMARY KEY("device_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "device_holders" ADD CONSTRAINT "device_holders_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_holders_user_idx" ON "device_holders" USING btree ("user_id");--> statement-breakpoint
-- The devices registered so far keep the one who registered them.
INSERT INTO "device_holders" ("device_id", "user_id", "registered_at")
SELECT "id", "registered_by", "created_at" FROM "devices" WHERE "registered_by" IS NOT NULL;
