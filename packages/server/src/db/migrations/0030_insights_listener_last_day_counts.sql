CREATE TABLE "insights_listener_last_day_counts" (
	"scope" text NOT NULL,
	"scope_id" integer NOT NULL,
	"last_day" date NOT NULL,
	"keys" integer NOT NULL,
	CONSTRAINT "insights_listener_last_day_counts_scope_scope_id_last_day_pk" PRIMARY KEY("scope","scope_id","last_day")
);
--> statement-breakpoint
-- Kept by the database whoever writes the last days (an ended session's rollup, a rebuild, psql): a
-- key's row inserted counts on its day, moved moves the count, deleted (a file's or a user's
-- deletion cascades) uncounts it. TG_ARGV[0] names the scope.
CREATE FUNCTION "insights_count_listener_last_days"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  id integer;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF TG_ARGV[0] = 'file' THEN id := OLD."file_id"; ELSE id := OLD."creator_id"; END IF;
    UPDATE "insights_listener_last_day_counts" SET "keys" = "keys" - 1
      WHERE "scope" = TG_ARGV[0] AND "scope_id" = id AND "last_day" = OLD."last_day";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF TG_ARGV[0] = 'file' THEN id := NEW."file_id"; ELSE id := NEW."creator_id"; END IF;
    INSERT INTO "insights_listener_last_day_counts" ("scope", "scope_id", "last_day", "keys")
      VALUES (TG_ARGV[0], id, NEW."last_day", 1)
      ON CONFLICT ("scope", "scope_id", "last_day")
      DO UPDATE SET "keys" = "insights_listener_last_day_counts"."keys" + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "file_last_days_inserted_counted" AFTER INSERT ON "insights_file_listener_last_days"
  FOR EACH ROW EXECUTE FUNCTION "insights_count_listener_last_days"('file');--> statement-breakpoint
CREATE TRIGGER "file_last_days_moved_counted" AFTER UPDATE OF "last_day" ON "insights_file_listener_last_days"
  FOR EACH ROW WHEN (OLD."last_day" IS DISTINCT FROM NEW."last_day")
  EXECUTE FUNCTION "insights_count_listener_last_days"('file');--> statement-breakpoint
CREATE TRIGGER "file_last_days_deleted_counted" AFTER DELETE ON "insights_file_listener_last_days"
  FOR EACH ROW EXECUTE FUNCTION "insights_count_listener_last_days"('file');--> statement-breakpoint
CREATE TRIGGER "creator_last_days_inserted_counted" AFTER INSERT ON "insights_creator_listener_last_days"
  FOR EACH ROW EXECUTE FUNCTION "insights_count_listener_last_days"('creator');--> statement-breakpoint
CREATE TRIGGER "creator_last_days_moved_counted" AFTER UPDATE OF "last_day" ON "insights_creator_listener_last_days"
  FOR EACH ROW WHEN (OLD."last_day" IS DISTINCT FROM NEW."last_day")
  EXECUTE FUNCTION "insights_count_listener_last_days"('creator');--> statement-breakpoint
CREATE TRIGGER "creator_last_days_deleted_counted" AFTER DELETE ON "insights_creator_listener_last_days"
  FOR EACH ROW EXECUTE FUNCTION "insights_count_listener_last_days"('creator');--> statement-breakpoint
-- Backfill from the last days kept so far.
INSERT INTO "insights_listener_last_day_counts" ("scope", "scope_id", "last_day", "keys")
SELECT 'file', "file_id", "last_day", count(*)::int FROM "insights_file_listener_last_days"
GROUP BY "file_id", "last_day";--> statement-breakpoint
INSERT INTO "insights_listener_last_day_counts" ("scope", "scope_id", "last_day", "keys")
SELECT 'creator', "creator_id", "last_day", count(*)::int FROM "insights_creator_listener_last_days"
GROUP BY "creator_id", "last_day";
