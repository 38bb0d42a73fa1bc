-- Each record an edit form sends back whole carries a version, so a save of an older copy is
-- refused instead of silently undoing someone else's change (EU GMP Annex 11; docs/api-contract.md "Versions").
ALTER TABLE "devices" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "floorplan_configs" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "line_clearances" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- The version counts changes to what the record's answer shows, whichever statement makes them:
-- one more when any column but those named (never shown: a password hash, a token version) and the
-- version itself differs. A password change, or a save that changes nothing, leaves it as it was,
-- so it does not refuse a form opened before. Nobody sets it by hand.
CREATE FUNCTION record_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- TG_ARGV is null, not empty, for a trigger given no arguments.
  hidden text[] := coalesce(TG_ARGV, '{}') || '{version}'::text[];
BEGIN
  IF (to_jsonb(NEW) - hidden) IS DISTINCT FROM (to_jsonb(OLD) - hidden) THEN
    NEW.version := OLD.version + 1;
  ELSE
    NEW.version := OLD.version;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_version BEFORE UPDATE ON users FOR EACH ROW
  EXECUTE FUNCTION record_version_bump('password_hash', 'password_set_by', 'token_version');
--> statement-breakpoint
CREATE TRIGGER line_clearances_version BEFORE UPDATE ON line_clearances FOR EACH ROW
  EXECUTE FUNCTION record_version_bump();
--> statement-breakpoint
CREATE TRIGGER devices_version BEFORE UPDATE ON devices FOR EACH ROW
  EXECUTE FUNCTION record_version_bump();
--> statement-breakpoint
-- A save stamps updated_at even when nothing else changed; floorplan_id follows the line's floor
-- plan when it is replaced or deleted, which a save checks by itself (its floorplanId).
CREATE TRIGGER floorplan_configs_version BEFORE UPDATE ON floorplan_configs FOR EACH ROW
  EXECUTE FUNCTION record_version_bump('updated_at', 'floorplan_id');
