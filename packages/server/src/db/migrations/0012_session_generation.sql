CREATE TABLE "session_generation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "session_generation_single_row" CHECK ("session_generation"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "session_generation" ("id", "generation") VALUES (1, 0);
--> statement-breakpoint
-- Raised once per writing statement, in its transaction, by every write that can change what a
-- session lookup (live_session_user, platform/access.repo.ts) answers: readers see the new
-- generation exactly when they can see the change. A session user kept in the process
-- (platform/access.ts, decision 034) is reused only while the generation it was read at is current.
CREATE FUNCTION "bump_session_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "session_generation" SET "generation" = "generation" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  -- A user's roles and memberships, and every tier of the creators they hold a tier of.
  FOREACH t IN ARRAY ARRAY['roles', 'user_roles', 'user_memberships', 'membership_tiers'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
         FOR EACH STATEMENT EXECUTE FUNCTION "bump_session_generation"()',
      t || '_bumps_session_generation', t);
  END LOOP;
END
$$;
--> statement-breakpoint
-- Not on insert: a new session's token is kept nowhere yet. Not on last_seen_at: each session's
-- hourly touch would drop every kept session; a kept session's idle end is judged in the process
-- from the last-seen time it was read with (older than, or equal to, the stored one: the app only
-- moves it forward). access-kept-sessions.test.ts fails when the lookup reads a column missing here.
CREATE TRIGGER "auth_sessions_bumps_session_generation"
  AFTER DELETE OR TRUNCATE OR UPDATE OF "token_hash", "user_id", "expires_at", "rotate_pending"
    ON "auth_sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_session_generation"();
--> statement-breakpoint
-- Moving last_seen_at back (by hand, never by the app) can end a kept session early: seen at once too.
CREATE TRIGGER "auth_sessions_last_seen_back_bumps_session_generation"
  AFTER UPDATE OF "last_seen_at" ON "auth_sessions"
  FOR EACH ROW WHEN (NEW."last_seen_at" < OLD."last_seen_at")
  EXECUTE FUNCTION "bump_session_generation"();
--> statement-breakpoint
-- Of users only what the lookup reads: points, streaks and other settings change often and it shows
-- none of them; a new account has no session yet. An update raises it only for rows whose values
-- change (a row trigger): every sign-in runs a conditional update of the timezone that mostly
-- changes nothing, and a statement trigger would drop every kept session at each sign-in.
-- access-kept-sessions.test.ts checks the columns.
CREATE TRIGGER "users_deleted_bumps_session_generation"
  AFTER DELETE OR TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_session_generation"();
--> statement-breakpoint
CREATE TRIGGER "users_updated_bumps_session_generation"
  AFTER UPDATE OF "id", "username", "timezone", "hide_locked_files", "suspended_at" ON "users"
  FOR EACH ROW WHEN (
    (OLD."id", OLD."username", OLD."timezone", OLD."hide_locked_files", OLD."suspended_at")
      IS DISTINCT FROM (NEW."id", NEW."username", NEW."timezone", NEW."hide_locked_files", NEW."suspended_at")
  )
  EXECUTE FUNCTION "bump_session_generation"();
