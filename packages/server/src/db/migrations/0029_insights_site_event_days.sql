CREATE TABLE "insights_site_event_days" (
	"day" date PRIMARY KEY NOT NULL,
	"sign_ups" integer NOT NULL,
	"uploads" integer NOT NULL,
	"messages" integer NOT NULL,
	"reports_opened" integer NOT NULL,
	"reports_closed" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insights_file_days_plays_idx" ON "insights_file_days" USING btree ("file_id","day","plays");