ALTER TABLE "playlists" ADD COLUMN "public_file_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "public_total_duration" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "public_with_haptics" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "public_has_tiers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "public_warnings" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "public_trigger_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "public_trigger_first_entries" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
-- playlists.public_* summarise each playlist's entries whose file is public: what the shared
-- audience sees (access.listViewer, visibleFilesFor), so simple lists read them with the page.
-- The triggers below keep them in the writing transaction, so every writer (API, admin command,
-- psql) keeps them right. The per-request twin, for viewers who see more, is summariseEntries
-- (modules/playlists/playlists.presenter.ts): public-summaries.test.ts compares the two.
--
-- Locked, then read in a statement of its own (a snapshot of its own): a concurrent writer of the
-- same playlists either waits for this transaction or is waited for and read. Not covered: a
-- file's public facts changing in the same instant it is first added to a playlist (neither
-- transaction sees the other's row); the playlist's next write puts it right.
CREATE FUNCTION "summarise_public_entries"("playlist_ids" integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "playlists" WHERE "id" = ANY ("playlist_ids") ORDER BY "id" FOR NO KEY UPDATE;
  WITH "entries" AS (
    SELECT pf."playlist_id", f."id" AS "file_id", pf."disabled", f."duration",
      f."haptics_key" IS NOT NULL AS "has_haptics",
      EXISTS (SELECT 1 FROM "file_tiers" ft WHERE ft."file_id" = f."id") AS "has_tiers",
      f."warnings", f."trigger_ids",
      row_number() OVER (PARTITION BY pf."playlist_id" ORDER BY pf."position")::integer AS "entry"
    FROM "playlist_files" pf JOIN "files" f ON f."id" = pf."file_id"
    WHERE pf."playlist_id" = ANY ("playlist_ids") AND f."is_public"
  ), "entry_totals" AS (
    SELECT "playlist_id", array_agg("file_id" ORDER BY "entry") AS "file_ids",
      coalesce(sum("duration") FILTER (WHERE NOT "disabled"), 0) AS "total_duration",
      (count(*) FILTER (WHERE "has_haptics"))::integer AS "with_haptics",
      bool_or("has_tiers") AS "has_tiers"
    FROM "entries" GROUP BY "playlist_id"
  ), "entry_warnings" AS (
    -- Distinct, in the order first met: by entry, then in the file's order.
    SELECT "playlist_id", array_agg("warning" ORDER BY "entry", "nth") AS "warnings"
    FROM (
      SELECT DISTINCT ON (e."playlist_id", w."warning") e."playlist_id", w."warning", e."entry", w."nth"
      FROM "entries" e, unnest(e."warnings") WITH ORDINALITY AS w("warning", "nth")
      ORDER BY e."playlist_id", w."warning", e."entry", w."nth"
    ) AS "firsts"
    GROUP BY "playlist_id"
  ), "entry_triggers" AS (
    SELECT "playlist_id", array_agg("trigger_id" ORDER BY "first_entry", "trigger_id") AS "trigger_ids",
      array_agg("first_entry" ORDER BY "first_entry", "trigger_id") AS "first_entries"
    FROM (
      SELECT e."playlist_id", t."trigger_id", min(e."entry") AS "first_entry"
      FROM "entries" e, unnest(e."trigger_ids") AS t("trigger_id")
      GROUP BY e."playlist_id", t."trigger_id"
    ) AS "firsts"
    GROUP BY "playlist_id"
  ), "summaries" AS (
    SELECT "changed"."id",
      coalesce(s."file_ids", '{}') AS "file_ids",
      coalesce(s."total_duration", 0) AS "total_duration",
      coalesce(s."with_haptics", 0) AS "with_haptics",
      coalesce(s."has_tiers", false) AS "has_tiers",
      coalesce(w."warnings", '{}') AS "warnings",
      coalesce(t."trigger_ids", '{}') AS "trigger_ids",
      coalesce(t."first_entries", '{}') AS "first_entries"
    FROM (SELECT DISTINCT unnest("playlist_ids") AS "id") AS "changed"
      LEFT JOIN "entry_totals" s ON s."playlist_id" = "changed"."id"
      LEFT JOIN "entry_warnings" w ON w."playlist_id" = "changed"."id"
      LEFT JOIN "entry_triggers" t ON t."playlist_id" = "changed"."id"
  )
  UPDATE "playlists" p SET
    "public_file_ids" = s."file_ids",
    "public_total_duration" = s."total_duration",
    "public_with_haptics" = s."with_haptics",
    "public_has_tiers" = s."has_tiers",
    "public_warnings" = s."warnings",
    "public_trigger_ids" = s."trigger_ids",
    "public_trigger_first_entries" = s."first_entries"
  FROM "summaries" s
  WHERE p."id" = s."id"
    -- An unchanged summary is not written (nor does it raise the playlists' generation).
    AND (p."public_file_ids", p."public_total_duration", p."public_with_haptics", p."public_has_tiers",
         p."public_warnings", p."public_trigger_ids", p."public_trigger_first_entries")
      IS DISTINCT FROM (s."file_ids", s."total_duration", s."with_haptics", s."has_tiers",
         s."warnings", s."trigger_ids", s."first_entries");
END
$$;
--> statement-breakpoint
-- Entries added, removed, moved or disabled: statement triggers with transition tables, so a
-- playlist's whole new list is summarised once. (A transition table serves one event only, and a
-- statement may name only the tables its event has: one branch each.)
CREATE FUNCTION "summarise_playlists_of_changed_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "summarise_public_entries"(ARRAY(SELECT "playlist_id" FROM "new_entries"));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "summarise_public_entries"(ARRAY(SELECT "playlist_id" FROM "old_entries"));
  ELSE
    PERFORM "summarise_public_entries"(ARRAY(
      SELECT "playlist_id" FROM "old_entries" UNION SELECT "playlist_id" FROM "new_entries"));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "playlist_files_inserted_summarise_playlists" AFTER INSERT ON "playlist_files"
  REFERENCING NEW TABLE AS "new_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "summarise_playlists_of_changed_entries"();
--> statement-breakpoint
CREATE TRIGGER "playlist_files_updated_summarise_playlists" AFTER UPDATE ON "playlist_files"
  REFERENCING OLD TABLE AS "old_entries" NEW TABLE AS "new_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "summarise_playlists_of_changed_entries"();
--> statement-breakpoint
-- Also a file's deletion: its entries go by the foreign key's cascade, which fires this.
CREATE TRIGGER "playlist_files_deleted_summarise_playlists" AFTER DELETE ON "playlist_files"
  REFERENCING OLD TABLE AS "old_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "summarise_playlists_of_changed_entries"();
--> statement-breakpoint
-- A file's tiers decide public_has_tiers of every playlist holding it.
CREATE FUNCTION "summarise_playlists_of_changed_tiers"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "file_ids" integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    "file_ids" := ARRAY(SELECT "file_id" FROM "new_tiers");
  ELSIF TG_OP = 'DELETE' THEN
    "file_ids" := ARRAY(SELECT "file_id" FROM "old_tiers");
  ELSE
    "file_ids" := ARRAY(SELECT "file_id" FROM "old_tiers" UNION SELECT "file_id" FROM "new_tiers");
  END IF;
  PERFORM "summarise_public_entries"(ARRAY(
    SELECT DISTINCT pf."playlist_id" FROM "playlist_files" pf WHERE pf."file_id" = ANY ("file_ids")));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "file_tiers_inserted_summarise_playlists" AFTER INSERT ON "file_tiers"
  REFERENCING NEW TABLE AS "new_tiers"
  FOR EACH STATEMENT EXECUTE FUNCTION "summarise_playlists_of_changed_tiers"();
--> statement-breakpoint
CREATE TRIGGER "file_tiers_updated_summarise_playlists" AFTER UPDATE ON "file_tiers"
  REFERENCING OLD TABLE AS "old_tiers" NEW TABLE AS "new_tiers"
  FOR EACH STATEMENT EXECUTE FUNCTION "summarise_playlists_of_changed_tiers"();
--> statement-breakpoint
CREATE TRIGGER "file_tiers_deleted_summarise_playlists" AFTER DELETE ON "file_tiers"
  REFERENCING OLD TABLE AS "old_tiers"
  FOR EACH STATEMENT EXECUTE FUNCTION "summarise_playlists_of_changed_tiers"();
--> statement-breakpoint
-- A file's public facts (trigger_ids follows its trigger links, migration 0001). A row trigger:
-- PostgreSQL gives no transition tables to a trigger on named columns, and one on every update of
-- files would run for each play counted; the condition skips files private before and after.
CREATE FUNCTION "summarise_playlists_of_changed_file"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "summarise_public_entries"(ARRAY(
    SELECT DISTINCT "playlist_id" FROM "playlist_files" WHERE "file_id" = NEW."id"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "files_summarise_playlists"
  AFTER UPDATE OF "is_public", "duration", "haptics_key", "warnings", "trigger_ids" ON "files"
  FOR EACH ROW WHEN ((OLD."is_public" OR NEW."is_public")
    AND (OLD."is_public", OLD."duration", OLD."haptics_key" IS NULL, OLD."warnings", OLD."trigger_ids")
      IS DISTINCT FROM (NEW."is_public", NEW."duration", NEW."haptics_key" IS NULL, NEW."warnings", NEW."trigger_ids"))
  EXECUTE FUNCTION "summarise_playlists_of_changed_file"();
--> statement-breakpoint
SELECT "summarise_public_entries"(ARRAY(SELECT "id" FROM "playlists"));
