-- When the server received each inspection's submit: its start and end times are the device's, so
-- a submit that arrived days later showed nothing of it on the record (docs/reports.md, "Flags").
ALTER TABLE "inspections" ADD COLUMN "received_at" timestamp with time zone;
--> statement-breakpoint
-- Earlier records: the time of their 'create inspection' entry in the trail, where it has one.
UPDATE "inspections" i SET "received_at" = created."at"
FROM (
  SELECT "entity_id", min("at") AS "at" FROM "audit_log"
  WHERE "entity" = 'inspection' AND "action" = 'create' AND "entity_id" IS NOT NULL
  GROUP BY "entity_id"
) created
WHERE created."entity_id" = i."id";
--> statement-breakpoint
-- The submit's insert sets it (or not, for a record from before); no later statement changes it.
CREATE FUNCTION inspections_received_at_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.received_at IS DISTINCT FROM OLD.received_at THEN
    RAISE EXCEPTION 'inspections.received_at of % is kept as received', OLD.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER inspections_received_at_kept BEFORE UPDATE ON inspections FOR EACH ROW
  EXECUTE FUNCTION inspections_received_at_kept();
