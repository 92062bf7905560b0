CREATE TABLE "insights_creator_day_sources" (
	"creator_id" integer NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_creator_day_sources_creator_id_day_source_pk" PRIMARY KEY("creator_id","day","source")
);
--> statement-breakpoint
CREATE TABLE "insights_creator_days" (
	"creator_id" integer NOT NULL,
	"day" date NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"listening_ms" bigint DEFAULT 0 NOT NULL,
	"share_heard" double precision DEFAULT 0 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	"toy_plays" integer DEFAULT 0 NOT NULL,
	"listeners" integer DEFAULT 0 NOT NULL,
	"week_listeners" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_creator_days_creator_id_day_pk" PRIMARY KEY("creator_id","day")
);
--> statement-breakpoint
CREATE TABLE "insights_creator_listener_last_days" (
	"creator_id" integer NOT NULL,
	"listener_key" text NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "insights_creator_listener_last_days_creator_id_listener_key_pk" PRIMARY KEY("creator_id","listener_key")
);
--> statement-breakpoint
CREATE TABLE "insights_file_day_listeners" (
	"file_id" integer NOT NULL,
	"day" date NOT NULL,
	"listeners" integer DEFAULT 0 NOT NULL,
	"week_listeners" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_file_day_listeners_file_id_day_pk" PRIMARY KEY("file_id","day")
);
--> statement-breakpoint
CREATE TABLE "insights_file_listener_last_days" (
	"file_id" integer NOT NULL,
	"listener_key" text NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "insights_file_listener_last_days_file_id_listener_key_pk" PRIMARY KEY("file_id","listener_key")
);
--> statement-breakpoint
CREATE TABLE "insights_listener_triggers" (
	"user_id" integer NOT NULL,
	"trigger_id" integer NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_listener_triggers_user_id_trigger_id_pk" PRIMARY KEY("user_id","trigger_id")
);
--> statement-breakpoint
CREATE TABLE "insights_previous_listeners" (
	"scope" text NOT NULL,
	"scope_id" integer NOT NULL,
	"period" integer NOT NULL,
	"day" date NOT NULL,
	"listeners" integer NOT NULL,
	CONSTRAINT "insights_previous_listeners_scope_scope_id_day_period_pk" PRIMARY KEY("scope","scope_id","day","period")
);
--> statement-breakpoint
CREATE TABLE "insights_site_totals" (
	"id" integer PRIMARY KEY NOT NULL,
	"file_count" integer DEFAULT 0 NOT NULL,
	"audio_bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insights_creator_day_sources" ADD CONSTRAINT "insights_creator_day_sources_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_creator_days" ADD CONSTRAINT "insights_creator_days_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_creator_listener_last_days" ADD CONSTRAINT "insights_creator_listener_last_days_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_file_day_listeners" ADD CONSTRAINT "insights_file_day_listeners_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_file_listener_last_days" ADD CONSTRAINT "insights_file_listener_last_days_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_listener_triggers" ADD CONSTRAINT "insights_listener_triggers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_listener_triggers" ADD CONSTRAINT "insights_listener_triggers_trigger_id_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."triggers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insights_creator_listener_last_days_day_idx" ON "insights_creator_listener_last_days" USING btree ("creator_id","last_day");--> statement-breakpoint
CREATE INDEX "insights_file_listener_last_days_day_idx" ON "insights_file_listener_last_days" USING btree ("file_id","last_day");--> statement-breakpoint
CREATE INDEX "insights_listener_triggers_top_idx" ON "insights_listener_triggers" USING btree ("user_id","plays" DESC NULLS LAST,"trigger_id");--> statement-breakpoint
-- Backfill from the rollups kept so far (docs/decisions/053). A day's distinct listeners are its
-- listener rows; a week's are counted on the first day of the week each key has a row.
INSERT INTO "insights_file_day_listeners" ("file_id", "day", "listeners", "week_listeners")
SELECT "file_id", "day", count(*)::int, (count(*) FILTER (WHERE "first_in_week"))::int
FROM (
  SELECT "file_id", "day",
    "day" = min("day") OVER (PARTITION BY "file_id", "listener_key", date_trunc('week', "day")) AS "first_in_week"
  FROM "insights_file_listeners"
) l
GROUP BY "file_id", "day";--> statement-breakpoint
INSERT INTO "insights_creator_days" ("creator_id", "day", "plays", "listening_ms", "share_heard", "completions", "toy_plays")
SELECT f."uploader_id", d."day", sum(d."plays")::int, sum(d."listening_ms"), sum(d."share_heard"),
  sum(d."completions")::int, sum(d."toy_plays")::int
FROM "insights_file_days" d JOIN "files" f ON f."id" = d."file_id"
GROUP BY f."uploader_id", d."day";--> statement-breakpoint
INSERT INTO "insights_creator_days" ("creator_id", "day", "listeners", "week_listeners")
SELECT "creator_id", "day", count(*)::int, (count(*) FILTER (WHERE "first_in_week"))::int
FROM (
  SELECT "creator_id", "day",
    "day" = min("day") OVER (PARTITION BY "creator_id", "listener_key", date_trunc('week', "day")) AS "first_in_week"
  FROM "insights_creator_listeners"
) l
GROUP BY "creator_id", "day"
ON CONFLICT ("creator_id", "day") DO UPDATE
  SET "listeners" = excluded."listeners", "week_listeners" = excluded."week_listeners";--> statement-breakpoint
INSERT INTO "insights_creator_day_sources" ("creator_id", "day", "source", "plays")
SELECT f."uploader_id", d."day", d."key", sum(d."plays")::int
FROM "insights_file_day_counts" d JOIN "files" f ON f."id" = d."file_id"
WHERE d."dimension" = 'source'
GROUP BY f."uploader_id", d."day", d."key";--> statement-breakpoint
INSERT INTO "insights_file_listener_last_days" ("file_id", "listener_key", "last_day")
SELECT "file_id", "listener_key", max("day") FROM "insights_file_listeners" GROUP BY "file_id", "listener_key";--> statement-breakpoint
INSERT INTO "insights_creator_listener_last_days" ("creator_id", "listener_key", "last_day")
SELECT "creator_id", "listener_key", max("day") FROM "insights_creator_listeners" GROUP BY "creator_id", "listener_key";--> statement-breakpoint
INSERT INTO "insights_listener_triggers" ("user_id", "trigger_id", "plays")
SELECT l."user_id", ft."trigger_id", sum(l."plays")::int
FROM "insights_listener_files" l JOIN "file_triggers" ft ON ft."file_id" = l."file_id" AND ft."trains"
WHERE l."plays" > 0
GROUP BY l."user_id", ft."trigger_id";--> statement-breakpoint
-- The files' running totals: kept by the database whoever writes files (uploads, publishing,
-- replacing audio, measuring sizes, deletes, psql).
INSERT INTO "insights_site_totals" ("id", "file_count", "audio_bytes")
SELECT 1, count(*)::int, coalesce(sum("audio_size"), 0) FROM "files";--> statement-breakpoint
-- Inserts and deletes per statement (a bulk insert updates the one row once); a size change per row.
CREATE FUNCTION "insights_count_files"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "insights_site_totals" SET "file_count" = 0, "audio_bytes" = 0 WHERE "id" = 1;
  ELSE
    UPDATE "insights_site_totals" t
      SET "file_count" = t."file_count" + c."n" * (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END),
          "audio_bytes" = t."audio_bytes" + c."bytes" * (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
      FROM (SELECT count(*)::int AS "n", coalesce(sum("audio_size"), 0) AS "bytes" FROM "changed_files") c
      WHERE t."id" = 1 AND c."n" > 0;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "insights_count_audio_size"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "insights_site_totals"
    SET "audio_bytes" = "audio_bytes" + coalesce(NEW."audio_size", 0) - coalesce(OLD."audio_size", 0)
    WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "files_inserted_count_insights_totals" AFTER INSERT ON "files"
  REFERENCING NEW TABLE AS "changed_files" FOR EACH STATEMENT EXECUTE FUNCTION "insights_count_files"();--> statement-breakpoint
CREATE TRIGGER "files_deleted_count_insights_totals" AFTER DELETE ON "files"
  REFERENCING OLD TABLE AS "changed_files" FOR EACH STATEMENT EXECUTE FUNCTION "insights_count_files"();--> statement-breakpoint
CREATE TRIGGER "files_truncated_count_insights_totals" AFTER TRUNCATE ON "files"
  FOR EACH STATEMENT EXECUTE FUNCTION "insights_count_files"();--> statement-breakpoint
CREATE TRIGGER "files_sized_count_insights_totals" AFTER UPDATE OF "audio_size" ON "files"
  FOR EACH ROW WHEN (OLD."audio_size" IS DISTINCT FROM NEW."audio_size") EXECUTE FUNCTION "insights_count_audio_size"();
