CREATE TABLE "library_generation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "library_generation_single_row" CHECK ("library_generation"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "trigger_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
CREATE INDEX "files_trigger_ids_idx" ON "files" USING gin ("trigger_ids");
--> statement-breakpoint
-- files.trigger_ids mirrors file_triggers. Statement triggers with transition tables: a bulk
-- insert of links updates each file once.
CREATE FUNCTION "sync_file_trigger_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "files" SET "trigger_ids" = coalesce(
    (SELECT array_agg(DISTINCT ft."trigger_id" ORDER BY ft."trigger_id")
       FROM "file_triggers" ft WHERE ft."file_id" = "files"."id"),
    '{}')
  WHERE "files"."id" IN (SELECT "file_id" FROM "changed_links");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "file_triggers_inserted_sync_files" AFTER INSERT ON "file_triggers"
  REFERENCING NEW TABLE AS "changed_links" FOR EACH STATEMENT EXECUTE FUNCTION "sync_file_trigger_ids"();
--> statement-breakpoint
CREATE TRIGGER "file_triggers_deleted_sync_files" AFTER DELETE ON "file_triggers"
  REFERENCING OLD TABLE AS "changed_links" FOR EACH STATEMENT EXECUTE FUNCTION "sync_file_trigger_ids"();
--> statement-breakpoint
CREATE TRIGGER "file_triggers_updated_from_sync_files" AFTER UPDATE ON "file_triggers"
  REFERENCING OLD TABLE AS "changed_links" FOR EACH STATEMENT EXECUTE FUNCTION "sync_file_trigger_ids"();
--> statement-breakpoint
CREATE TRIGGER "file_triggers_updated_to_sync_files" AFTER UPDATE ON "file_triggers"
  REFERENCING NEW TABLE AS "changed_links" FOR EACH STATEMENT EXECUTE FUNCTION "sync_file_trigger_ids"();
--> statement-breakpoint
UPDATE "files" SET "trigger_ids" = linked."ids"
  FROM (SELECT "file_id", array_agg(DISTINCT "trigger_id" ORDER BY "trigger_id") AS "ids"
          FROM "file_triggers" GROUP BY "file_id") AS linked
  WHERE linked."file_id" = "files"."id";
--> statement-breakpoint
INSERT INTO "library_generation" ("id", "generation") VALUES (1, 0);
--> statement-breakpoint
-- Raised once per writing statement, in its transaction: readers see the new generation exactly
-- when they can see the change. Kept answers of the read cache (platform/read-cache.ts) are
-- reused only while the generation they were computed at is current.
CREATE FUNCTION "bump_library_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "library_generation" SET "generation" = "generation" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  -- Every table the cached answers read (files, playlists, series, triggers, tags, creators, locks).
  FOREACH t IN ARRAY ARRAY[
    'membership_tiers', 'user_memberships', 'file_tiers', 'triggers', 'file_triggers',
    'user_triggers', 'tags', 'file_tags', 'playlists', 'playlist_files', 'playlist_ratings',
    'series', 'series_playlists', 'user_series', 'user_roles'
  ] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
         FOR EACH STATEMENT EXECUTE FUNCTION "bump_library_generation"()',
      t || '_bumps_library_generation', t);
  END LOOP;
END
$$;
--> statement-breakpoint
-- Every column of files but plays: each finished listen counts a play, and letting that drop every
-- kept answer (and queue on this row's lock) would cost more than a play count up to
-- LIBRARY_CACHE_SECONDS old. read-cache.test.ts fails when a new column is missing here.
CREATE TRIGGER "files_bumps_library_generation"
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "id", "uuid", "name", "description", "file_type",
    "track_number", "release_date", "is_public", "duration", "audio_key", "audio_type", "script_key",
    "haptics_key", "warnings", "author_id", "uploader_id", "user_uploaded", "created_at", "trigger_ids"
    ON "files"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_library_generation"();
--> statement-breakpoint
-- Of users only what the answers show or depend on: points and streaks change with every listen,
-- and a new account has nothing in the library yet.
CREATE TRIGGER "users_bumps_library_generation"
  AFTER DELETE OR UPDATE OF "username", "image_url", "hide_locked_files" ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_library_generation"();
