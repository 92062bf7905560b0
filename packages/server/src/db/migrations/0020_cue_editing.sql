ALTER TABLE "files" ADD COLUMN "haptics_revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "peaks_key" text;