-- Known browsers (server/auth/known-browser.ts; docs/permissions.md "Sign-in lockout"): a wrong
-- password from a browser its account signed in from counts against that browser's entry, not the
-- account, so a stranger's failures do not lock the owner out. A spent entry is known no more.
CREATE TABLE "known_browser_failures" (
	"entry_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "known_browser_failures" ADD CONSTRAINT "known_browser_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;