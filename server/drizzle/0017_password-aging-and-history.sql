-- Passwords are revised (21 CFR 11.300(b)): a new one of the user's own may not be one of its last
-- PASSWORD_HISTORY (their scrypt hashes, as stored), and one older than PASSWORD_MAX_AGE_DAYS must
-- be replaced at the next sign-in (docs/permissions.md "Password history and age").
CREATE TABLE "password_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"password_hash" text NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "password_history" ADD CONSTRAINT "password_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_history_user_idx" ON "password_history" USING btree ("user_id","id");
--> statement-breakpoint
-- When a password was set is never shown on the user's record: setting one leaves its version as it
-- was (migration 0016), so an edit form opened before is not refused. Before the fill below, which
-- would count otherwise.
DROP TRIGGER users_version ON users;
--> statement-breakpoint
CREATE TRIGGER users_version BEFORE UPDATE ON users FOR EACH ROW
  EXECUTE FUNCTION record_version_bump('password_hash', 'password_set_by', 'token_version', 'password_changed_at');
--> statement-breakpoint
-- Existing passwords are as old as the trail says: the last entry that set the user's password (its
-- own change, a manager's reset, the account's creation), else the account's creation.
UPDATE "users" u SET "password_changed_at" = coalesce((
  SELECT max(a."at") FROM "audit_log" a
  WHERE a."entity" = 'user' AND a."entity_id" = u."id"
    AND (a."action" IN ('password.change', 'create')
      OR (a."action" = 'update' AND a."new_value" ->> 'passwordReset' = 'true'))
), u."created_at");
