-- Who chose a user's current password when it was not the user: a signature needs a password only its signer knows (docs/signatures.md). Existing accounts start as their own.
ALTER TABLE "users" ADD COLUMN "password_set_by" text;--> statement-breakpoint
-- A file already stored as another video's is refused as new evidence (services/capture.ts sameFileAs).
CREATE INDEX "videos_sha256_idx" ON "videos" USING btree ("sha256");
