CREATE TABLE "insights_site_days" (
	"day" date PRIMARY KEY NOT NULL,
	"active_listeners" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Fill from the listener days kept so far (each row is one active listener on its day).
INSERT INTO "insights_site_days" ("day", "active_listeners") SELECT "day", count(*)::int FROM "insights_listener_days" GROUP BY "day";
