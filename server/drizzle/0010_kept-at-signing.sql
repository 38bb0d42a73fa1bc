-- What a signature keeps as it was when signed: the names printed and the floor-plan layout (docs/reports.md).
ALTER TABLE "signatures" ADD COLUMN "kept" jsonb;--> statement-breakpoint
CREATE INDEX "signatures_kept_image_idx" ON "signatures" USING btree (("kept"->'layout'->'floorplan'->>'imageKey'));