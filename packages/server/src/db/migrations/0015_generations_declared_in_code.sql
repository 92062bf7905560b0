-- The triggers that raise kept-data generations are generated from db/kept-generations.ts and
-- installed after the migrations (installGenerationTriggers): the hand-kept ones of migrations
-- 0001, 0004 and 0012 go, with their functions and the two single-row tables.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT tg.tgname, c.relname FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
      WHERE NOT tg.tgisinternal AND tg.tgname LIKE '%\_bumps\_%generation'
  LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t.tgname, t.relname);
  END LOOP;
END
$$;
--> statement-breakpoint
DROP FUNCTION "bump_library_generation"();--> statement-breakpoint
DROP FUNCTION "bump_viewer_generation"();--> statement-breakpoint
DROP FUNCTION "bump_session_generation"();--> statement-breakpoint
DROP TABLE "session_generation" CASCADE;--> statement-breakpoint
DROP TABLE "library_generation" CASCADE;
