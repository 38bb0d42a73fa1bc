-- Every email address a user has held stays that user's (21 CFR 11.100(a): a signature is never reassigned to anyone else; docs/permissions.md).
CREATE TABLE "user_emails" (
	"email" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "user_emails_lower_case" CHECK ("user_emails"."email" = lower("user_emails"."email"))
);
--> statement-breakpoint
-- The addresses held now stay with whoever holds them now.
INSERT INTO "user_emails" ("email", "user_id")
SELECT lower("email"), "id" FROM "users"
ON CONFLICT ("email") DO NOTHING;
--> statement-breakpoint
-- Earlier ones, as the trail names them, each with its first holder: a user's email as created,
-- changed or deleted (old and new values of its create, update and delete entries), and the email
-- each user acted under (not a service account's).
INSERT INTO "user_emails" ("email", "user_id")
SELECT DISTINCT ON ("email") "email", "user_id" FROM (
  SELECT lower(v.value ->> 'email') AS "email", a."entity_id" AS "user_id", a."id"
  FROM "audit_log" a CROSS JOIN LATERAL (VALUES (a."old_value"), (a."new_value")) AS v(value)
  WHERE a."entity" = 'user' AND a."action" IN ('create', 'update', 'delete')
    AND a."entity_id" IS NOT NULL AND jsonb_typeof(v.value -> 'email') = 'string'
  UNION ALL
  SELECT lower(a."actor_email"), a."actor_id", a."id"
  FROM "audit_log" a
  WHERE a."actor_id" IS NOT NULL AND a."actor_email" LIKE '%@%'
    AND a."actor_id" NOT IN (SELECT "id" FROM "api_keys")
) held
WHERE "email" <> ''
ORDER BY "email", "id"
ON CONFLICT ("email") DO NOTHING;
--> statement-breakpoint
-- From now on the statement that gives a user an email records it, and refuses an address another
-- user holds or held (the users routes check first, to name that user in their 409).
CREATE FUNCTION users_email_held() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  holder text;
BEGIN
  INSERT INTO user_emails (email, user_id) VALUES (lower(NEW.email), NEW.id)
    ON CONFLICT (email) DO NOTHING;
  -- A new statement: it sees an owner whose transaction committed while the insert waited.
  SELECT user_id INTO holder FROM user_emails WHERE email = lower(NEW.email);
  IF holder IS DISTINCT FROM NEW.id THEN
    RAISE EXCEPTION 'the email address % belonged to user %; an email is never given to another user', lower(NEW.email), holder
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'user_emails_pkey';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_email_held AFTER INSERT OR UPDATE OF email ON users
  FOR EACH ROW EXECUTE FUNCTION users_email_held();
