CREATE TABLE "kept_changes" (
	"generation_name" text NOT NULL,
	"generation" bigint NOT NULL,
	"row_id" integer NOT NULL,
	"before" jsonb
);
--> statement-breakpoint
CREATE INDEX "kept_changes_generation_idx" ON "kept_changes" USING btree ("generation_name","generation");