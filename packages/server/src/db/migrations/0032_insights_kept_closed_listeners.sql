-- Kept figures are counted again on the next view, now with the cut week's and the previous weeks' listeners.
DELETE FROM "insights_previous_listeners";--> statement-breakpoint
ALTER TABLE "insights_previous_listeners" ADD COLUMN "cut_week_listeners" integer;--> statement-breakpoint
ALTER TABLE "insights_previous_listeners" ADD COLUMN "previous_week_listeners" integer[] NOT NULL;
