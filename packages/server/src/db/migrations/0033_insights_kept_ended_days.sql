CREATE TABLE "insights_kept_file_plays" (
	"creator_id" integer NOT NULL,
	"period" integer NOT NULL,
	"day" date NOT NULL,
	"file_ids" integer[] NOT NULL,
	"plays" integer[] NOT NULL,
	"previous_plays" integer[] NOT NULL,
	CONSTRAINT "insights_kept_file_plays_creator_id_day_period_pk" PRIMARY KEY("creator_id","day","period")
);
--> statement-breakpoint
CREATE TABLE "insights_kept_retention" (
	"file_id" integer NOT NULL,
	"period" integer NOT NULL,
	"day" date NOT NULL,
	"retention" integer[] NOT NULL,
	CONSTRAINT "insights_kept_retention_file_id_day_period_pk" PRIMARY KEY("file_id","day","period")
);
--> statement-breakpoint
CREATE INDEX "insights_listener_last_day_counts_keys_idx" ON "insights_listener_last_day_counts" USING btree ("scope","scope_id","last_day","keys");