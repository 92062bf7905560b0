CREATE TABLE "viewer_generation" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- What only one user sees (their ratings and favourites, plan progress, trained triggers) no longer
-- raises the one library generation: that dropped everyone's kept answers with each like and queued
-- every writer on one row's lock. Each write raises the generation of the user it belongs to
-- instead; a viewer's kept answers are valid while both generations are unchanged (decision 010).
DROP TRIGGER "playlist_ratings_bumps_library_generation" ON "playlist_ratings";
--> statement-breakpoint
DROP TRIGGER "user_series_bumps_library_generation" ON "user_series";
--> statement-breakpoint
DROP TRIGGER "user_triggers_bumps_library_generation" ON "user_triggers";
--> statement-breakpoint
CREATE FUNCTION "bump_viewer_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner integer;
BEGIN
  FOREACH owner IN ARRAY CASE TG_OP
    WHEN 'INSERT' THEN ARRAY[NEW."user_id"]
    WHEN 'DELETE' THEN ARRAY[OLD."user_id"]
    WHEN 'UPDATE' THEN ARRAY(SELECT DISTINCT u FROM unnest(ARRAY[OLD."user_id", NEW."user_id"]) u)
  END LOOP
    INSERT INTO "viewer_generation" ("user_id", "generation") VALUES (owner, 1)
      ON CONFLICT ("user_id") DO UPDATE SET "generation" = "viewer_generation"."generation" + 1;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['playlist_ratings', 'user_series', 'user_triggers'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I
         FOR EACH ROW EXECUTE FUNCTION "bump_viewer_generation"()',
      t || '_bumps_viewer_generation', t);
    -- Emptying the table changes every user's part: rare, and the library generation covers it.
    EXECUTE format(
      'CREATE TRIGGER %I AFTER TRUNCATE ON %I
         FOR EACH STATEMENT EXECUTE FUNCTION "bump_library_generation"()',
      t || '_truncate_bumps_library_generation', t);
  END LOOP;
END
$$;
--> statement-breakpoint
-- A rating recounts its playlist's likes, dislikes and favourites. Those counts in others' kept
-- answers may be up to LIBRARY_CACHE_SECONDS old, as play counts are; every other column of
-- playlists still raises the library generation. read-cache.test.ts fails when a new column is
-- missing here.
DROP TRIGGER "playlists_bumps_library_generation" ON "playlists";
--> statement-breakpoint
CREATE TRIGGER "playlists_bumps_library_generation"
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "id", "uuid", "name", "description", "exp_level",
    "is_public", "is_core", "creator_id", "date_created"
    ON "playlists"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_library_generation"();
